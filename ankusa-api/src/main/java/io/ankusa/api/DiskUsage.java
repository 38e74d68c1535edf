package io.ankusa.api;

/**
 * What a queue's store takes on disk, and the attempt history's share of it.
 *
 * <p>{@code storeBytes} is the backend's own measure of the store (RocksDB: live SST files plus
 * unflushed memtables; LMDB: the data file's pages in use up to its highest written page).
 * {@code historyBytes} is the key and value bytes of every attempt history key, an exact counter
 * kept in the same batches as the history; on disk the history takes roughly that times a
 * backend's overhead factor (docs/deployment.md, "Sizing"). {@code historyMaxBytes} is the
 * {@code attempts.max-bytes} bound the history is pruned to.
 *
 * @param storeBytes      the store's size as the backend reports it, bytes
 * @param historyBytes    key and value bytes of the attempt history
 * @param historyMaxBytes the history's bound ({@code attempts.max-bytes})
 */
public record DiskUsage(long storeBytes, long historyBytes, long historyMaxBytes) {

    /**
     * Checks the values.
     *
     * @param storeBytes      the store's size as the backend reports it, at least 0
     * @param historyBytes    key and value bytes of the attempt history, at least 0
     * @param historyMaxBytes the history's bound, at least 1
     */
    public DiskUsage {
        if (storeBytes < 0 || historyBytes < 0 || historyMaxBytes < 1) {
            throw new IllegalArgumentException("disk usage out of range: store " + storeBytes + ", history "
                    + historyBytes + ", history bound " + historyMaxBytes);
        }
    }
}
