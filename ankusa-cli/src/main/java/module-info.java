/**
 * The {@code ankusa} command line: a demo on the embedded default backend and the operator
 * commands over a store ({@code stats}, {@code tenants}, {@code checkpoint}, …). Run it on the module
 * path: {@code java -p … -m io.ankusa.cli/io.ankusa.cli.Ankusa}. Exports nothing.
 *
 * <p>Store backends are found with {@link java.util.ServiceLoader} through {@code io.ankusa.store};
 * the launcher puts both on the module path, and the module never names one.
 */
module io.ankusa.cli {
    requires info.picocli;
    requires io.ankusa.dispatch;
    requires io.ankusa.queue;
    requires io.ankusa.store;

    // picocli builds the commands and sets their @Option fields by reflection.
    opens io.ankusa.cli.command to info.picocli;
}
