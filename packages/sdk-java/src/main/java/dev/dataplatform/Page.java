package dev.dataplatform;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * One page of a list. Iterating it (or its {@link #stream()}) walks every item of this page and of every later
 * one, fetching each page when the walk reaches it, with the same query and options.
 *
 * @param <T> the type of an item
 */
public final class Page<T> implements Iterable<T> {
  private final List<T> data;
  private final long total;
  private final long limit;
  private final long skip;
  private final LongFunction<Page<T>> fetch;
  private final LongFunction<CompletableFuture<Page<T>>> fetchAsync;

  Page(
      List<T> data,
      long total,
      long limit,
      long skip,
      LongFunction<Page<T>> fetch,
      LongFunction<CompletableFuture<Page<T>>> fetchAsync) {
    this.data = List.copyOf(data);
    this.total = total;
    this.limit = limit;
    this.skip = skip;
    this.fetch = fetch;
    this.fetchAsync = fetchAsync;
  }

  /** The items of this page. */
  public List<T> data() {
    return data;
  }

  /** The number of items across all pages. */
  public long total() {
    return total;
  }

  /** The page size of this page. */
  public long limit() {
    return limit;
  }

  /** The number of items before this page. */
  public long skip() {
    return skip;
  }

  /** True when items follow this page. An empty page ends the walk, even if {@code total} says otherwise. */
  public boolean hasNextPage() {
    return !data.isEmpty() && skip + data.size() < total;
  }

  /** Fetches the page after this one. */
  public Page<T> nextPage() {
    return fetch.apply(nextSkip());
  }

  /** Fetches the page after this one without blocking. */
  public CompletableFuture<Page<T>> nextPageAsync() {
    return fetchAsync.apply(nextSkip());
  }

  private long nextSkip() {
    if (!hasNextPage()) {
      throw new DataPlatformException("No next page: check hasNextPage() before calling nextPage()");
    }
    return skip + data.size();
  }

  /** This page and every later one, fetched as the walk reaches them. */
  public Iterable<Page<T>> pages() {
    return () ->
        new Iterator<>() {
          private Page<T> current;

          @Override
          public boolean hasNext() {
            return current == null || current.hasNextPage();
          }

          @Override
          public Page<T> next() {
            if (!hasNext()) throw new NoSuchElementException();
            current = current == null ? Page.this : current.nextPage();
            return current;
          }
        };
  }

  @Override
  public Iterator<T> iterator() {
    Iterator<Page<T>> pages = pages().iterator();
    return new Iterator<>() {
      private Iterator<T> items = List.<T>of().iterator();

      @Override
      public boolean hasNext() {
        while (!items.hasNext() && pages.hasNext()) items = pages.next().data().iterator();
        return items.hasNext();
      }

      @Override
      public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return items.next();
      }
    };
  }

  /** Every item of this page and the later ones, as a lazy sequential stream. */
  public Stream<T> stream() {
    return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED), false);
  }
}
