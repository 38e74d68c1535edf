package io.ankusa.cli.command;

import io.ankusa.cli.console.Figures;
import io.ankusa.queue.Queue;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code ankusa tenants}: how many tenants the store has seen (one point read). */
@Command(name = "tenants", mixinStandardHelpOptions = true,
        description = "Show how many tenants the store has seen.")
final class TenantsCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Override
    public Integer call() {
        try (Queue queue = StoreAccess.openQueue(root)) {
            root.spec.commandLine().getOut().println("tenants " + Figures.count(queue.tenantCount()));
        }
        return ExitCode.OK.code();
    }
}
