/**
 * The byte layout of an Ankusa store: families, prefixes, sentinels, ranges, big-endian codecs and
 * key decoders, plus the format-2 layout kept for the migration. Only the queue may build keys.
 */
@SuppressWarnings("module") // io.ankusa.queue is compiled after this module
module io.ankusa.keys {
    exports io.ankusa.keys to io.ankusa.queue;
    exports io.ankusa.keys.v2 to io.ankusa.queue;
}
