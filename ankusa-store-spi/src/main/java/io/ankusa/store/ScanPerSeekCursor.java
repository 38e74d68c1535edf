package io.ankusa.store;

import java.util.Objects;

/** {@link Store#cursor}'s default: a {@link Scan} per seek, the previous one closed. */
final class ScanPerSeekCursor implements Cursor {

    private final Store store;
    private final String family;
    private Scan current;
    private boolean closed;

    ScanPerSeekCursor(Store store, String family) {
        this.store = Objects.requireNonNull(store, "store");
        this.family = Objects.requireNonNull(family, "family");
    }

    @Override
    public Scan seek(KeyRange range) {
        Objects.requireNonNull(range, "range");
        if (closed) {
            throw new IllegalStateException("cursor over family '" + family + "' is closed");
        }
        if (current != null) {
            current.close();
        }
        current = new CursorView(store.scan(family, range, Direction.FORWARD));
        return current;
    }

    @Override
    public void close() {
        closed = true;
        if (current != null) {
            current.close();
            current = null;
        }
    }

    /** A seek's scan: once superseded by a later seek, its next call throws. */
    private static final class CursorView implements Scan {
        private final Scan scan;
        private boolean superseded;

        CursorView(Scan scan) {
            this.scan = scan;
        }

        @Override
        public boolean hasNext() {
            requireCurrent();
            return scan.hasNext();
        }

        @Override
        public KeyValue next() {
            requireCurrent();
            return scan.next();
        }

        @Override
        public void close() {
            superseded = true;
            scan.close();
        }

        private void requireCurrent() {
            if (superseded) {
                throw new IllegalStateException("this seek's scan ended: the cursor was positioned again or closed");
            }
        }
    }
}
