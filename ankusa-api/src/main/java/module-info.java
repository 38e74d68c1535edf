/** Ankusa's public value types: hooks, receipts, stats, dead letters, pages, configuration and refusals. */
module io.ankusa.api {
    exports io.ankusa.api;
}
