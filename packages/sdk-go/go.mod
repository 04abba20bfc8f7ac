module github.com/dataplatform/dataplatform-go

// 1.23: lists are ranged over as iter.Seq2.
go 1.23
