/** Ankusa's public value types: hooks, receipts, stats, dead letters, pages, configuration and refusals. */
@SuppressWarnings("module") // io.ankusa.queue is compiled after this module
module io.ankusa.api {
    exports io.ankusa.api;
    exports io.ankusa.api.events;
    // Reading hooks back under the storage rules, not the (newer) input rules.
    exports io.ankusa.api.stored to io.ankusa.queue;
}
