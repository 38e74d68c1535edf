package io.ankusa.cli.command;

import io.ankusa.api.QueueConfig;
import io.ankusa.cli.console.TerminalText;
import io.ankusa.store.Stores;
import io.ankusa.store.spi.StoreProvider;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code ankusa} command: the global options every subcommand inherits ({@code --store},
 * {@code --backend}, {@code --verbose}) and the subcommands. {@link #execute} runs one command line
 * and maps every failure to a one-line message on stderr and an {@link ExitCode}.
 */
@Command(name = "ankusa",
        mixinStandardHelpOptions = true,
        versionProvider = ModuleVersion.class,
        description = "Ankusa, the embeddable multi-tenant webhook delivery queue: demo and operator commands.",
        subcommands = {DemoCommand.class, StatsCommand.class, TenantsCommand.class, DlqCommand.class,
            AttemptsCommand.class, HookCommand.class, PurgeCommand.class, QuarantineCommand.class,
            EndpointsCommand.class, EraseCommand.class,
            ReplayCommand.class, ServeCommand.class, MigrateCommand.class, CheckpointCommand.class,
            CompletionCommand.class, FixtureCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            " 0:done",
            " 1:unexpected failure (I/O error, bug)",
            " 2:bad arguments (replay --seq: the delivery is not dead)",
            " 3:no store at --store",
            " 4:store in use by another process",
            " 5:store written by a newer release",
            " 6:unknown tenant (hook, replay --seq: no such hook or delivery)",
            " 7:store written by another backend",
            " 8:store corrupt",
            " 9:target exists",
            "10:store at an older format (run 'ankusa migrate')",
            "11:--url: no answer from the admin API",
            "12:--url: no token, or the admin API refused it or the action"})
public final class AnkusaCommand implements Callable<Integer> {

    /** Where a store lives unless {@code --store} says otherwise. */
    public static final String DEFAULT_STORE = "ankusa-data";

    /** Environment variable that makes failures print their stack trace. */
    static final String DEBUG_ENV = "ANKUSA_DEBUG";

    private static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    @Spec
    CommandSpec spec;

    @Option(names = "--store", paramLabel = "DIR", scope = ScopeType.INHERIT, defaultValue = DEFAULT_STORE,
            description = "The store directory (default: ${DEFAULT-VALUE}).")
    Path store;

    @Option(names = "--backend", paramLabel = "NAME", scope = ScopeType.INHERIT, defaultValue = "rocksdb",
            converter = BackendName.class, completionCandidates = BackendName.Candidates.class,
            description = "The store backend: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
            description = "Log the library's progress (SLF4J at INFO) on stderr.")
    boolean verbose;

    /** Without a subcommand: a usage error that lists them. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "a command is needed: "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** The store directory. */
    Path store() {
        return store;
    }

    /** The backend name, one the module path provides. */
    String backend() {
        return backend;
    }

    /**
     * The queue configuration for the store: {@code --store} and {@code --backend}, every other key
     * at its default except housekeeping, which is off: a command changes only what it is asked to.
     */
    QueueConfig queueConfig() {
        return QueueConfig.builder(store).backend(backend).housekeepingInterval(Duration.ZERO).build();
    }

    /**
     * Runs one command line, writing results to {@code out} and failures to {@code err}.
     *
     * @return the process exit code (see {@link ExitCode})
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new AnkusaCommand());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionStrategy(parsed -> {
            AnkusaCommand root = parsed.commandSpec().root().commandLine().getCommand();
            root.configureLogging();
            return new CommandLine.RunLast().execute(parsed);
        });
        commandLine.setParameterExceptionHandler((e, ignored) -> {
            CommandSpec at = e.getCommandLine().getCommandSpec();
            err.println(at.qualifiedName() + ": " + TerminalText.escape(String.valueOf(e.getMessage()))
                    + " (see '" + at.qualifiedName() + " --help')");
            return ExitCode.USAGE.code();
        });
        commandLine.setExecutionExceptionHandler((e, at, parsed) -> {
            CommandFailure failure = Failures.translate(e);
            // Messages quote tenant ids, paths and store errors: untrusted text.
            err.println("ankusa: " + TerminalText.escape(String.valueOf(failure.getMessage())));
            if (System.getenv(DEBUG_ENV) != null) {
                e.printStackTrace(err);
            }
            return failure.exitCode().code();
        });
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    private void configureLogging() {
        if (System.getProperty(LOG_LEVEL_PROPERTY) == null) {
            System.setProperty(LOG_LEVEL_PROPERTY, verbose ? "info" : "warn");
        }
    }

    /** Checks {@code --backend} against the backends on the module path. */
    static final class BackendName implements CommandLine.ITypeConverter<String> {

        @Override
        public String convert(String value) {
            if (Stores.provider(value).isEmpty()) {
                throw new CommandLine.TypeConversionException("no backend '" + value + "' (present: "
                        + Stores.providers().stream().map(StoreProvider::name).collect(Collectors.joining(", ")) + ")");
            }
            return value;
        }

        /** The backends on the module path, for the help text. */
        static final class Candidates implements Iterable<String> {
            @Override
            public java.util.Iterator<String> iterator() {
                return Stores.providers().stream().map(StoreProvider::name).iterator();
            }
        }
    }
}
