module dataplatform-bench/goget

go 1.23

require github.com/dataplatform/dataplatform-go v1.0.0

replace github.com/dataplatform/dataplatform-go => ../../../packages/sdk-go
