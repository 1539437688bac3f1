package io.kegdb.raft.replication;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/** A scan fetched a page at a time, each page a separate request starting after the last key seen. */
final class PagedIterator implements KvIterator {

    /** Fetches up to {@code limit} pairs of {@code [from, to)} in the scan's direction. */
    interface PageSource {
        List<KeyValue> fetch(byte[] from, byte[] to, int limit);
    }

    private final PageSource source;
    private final boolean descending;
    private final int pageSize;
    private byte[] from;
    private byte[] to;
    private Iterator<KeyValue> page;
    private boolean lastPage;
    private boolean closed;

    PagedIterator(PageSource source, byte[] from, byte[] to, boolean descending, int pageSize) {
        this.source = source;
        this.from = from;
        this.to = to;
        this.descending = descending;
        this.pageSize = pageSize;
    }

    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        while (page == null || !page.hasNext()) {
            if (lastPage) {
                return false;
            }
            List<KeyValue> fetched = source.fetch(from, to, pageSize);
            lastPage = fetched.size() < pageSize;
            if (!fetched.isEmpty()) {
                byte[] last = fetched.get(fetched.size() - 1).key();
                if (descending) {
                    to = last;
                } else {
                    from = Arrays.copyOf(last, last.length + 1); // the least key after last
                }
            }
            page = fetched.iterator();
        }
        return true;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return page.next();
    }

    @Override
    public void close() {
        closed = true;
        page = null;
    }
}
