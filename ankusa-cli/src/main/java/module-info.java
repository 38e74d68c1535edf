/**
 * The {@code ankusa} command line: a demo on the embedded default backend and the operator
 * commands over a store ({@code stats}, {@code tenants}, {@code checkpoint}, …) or over a live node's admin
 * API ({@code --url}), and {@code serve}, which serves that API over a store. Run it on the module
 * path: {@code java -p … -m io.ankusa.cli/io.ankusa.cli.Ankusa}. Exports nothing.
 *
 * <p>Store backends are found with {@link java.util.ServiceLoader} through {@code io.ankusa.store};
 * the launcher puts both on the module path, and the module never names one.
 */
module io.ankusa.cli {
    requires com.fasterxml.jackson.databind;
    requires info.picocli;
    requires io.ankusa.admin;
    requires java.net.http;
    // AdminServer needs Jetty at run time; io.ankusa.admin requires it only statically.
    requires org.eclipse.jetty.ee10.servlet;
    requires org.eclipse.jetty.server;
    requires io.ankusa.dispatch;
    requires io.ankusa.queue;
    requires io.ankusa.store;

    // picocli builds the commands and sets their @Option fields by reflection.
    opens io.ankusa.cli.command to info.picocli;
}
