package io.ankusa.cli.command;

import io.ankusa.cli.console.Figures;
import io.ankusa.queue.fixtures.StoreFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code ankusa fixture [--out DIR]}: writes the format-2 and the format-3 fixture store with
 * {@code --backend} and packs each as a zip archive ({@link StoreFixtures#write}), for tests and
 * demos. Refuses to replace an archive that is already there; ignores {@code --store}.
 */
@Command(name = "fixture", mixinStandardHelpOptions = true, hidden = true, // for the project's tests, not for operators
        header = "Write the fixture stores that the upgrade tests read.",
        description = {
            "Write a format-2 and a format-3 fixture store with --backend and pack each into DIR as",
            "store-v<format>-<backend>.zip (for tests and demos; unzipped, each opens as a store)."})
final class FixtureCommand implements Callable<Integer> {

    @ParentCommand
    AnkusaCommand root;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".",
            description = "Where to write the archives (created if missing; default: the current directory).")
    Path out;

    @Override
    public Integer call() {
        for (int format : new int[] {2, 3}) {
            Path archive = out.resolve(StoreFixtures.archiveName(format, root.backend()));
            if (Files.exists(archive)) {
                throw new CommandFailure(ExitCode.TARGET_EXISTS, "fixture archive " + archive + " exists");
            }
        }
        List<Path> archives = StoreFixtures.write(out, root.backend());
        PrintWriter printer = root.spec.commandLine().getOut();
        for (Path archive : archives) {
            printer.println("wrote " + archive + " (" + Figures.count(size(archive)) + " bytes)");
        }
        return ExitCode.OK.code();
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
