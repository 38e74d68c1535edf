package io.ankusa.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A node's identity, kept in {@code <root>/node.id} (a random UUID written at its first start), and
 * named in every watermark commit's metadata ({@code ankusa generation=N node=ID}). A node assigned
 * a partition whose last commit names another node knows that node owned the partition since its own
 * store of it last saw it, so that store is stale: it still owes hooks the other node delivered.
 */
final class NodeId {

    private static final String FILE = "node.id";
    private static final String FIELD = " node=";

    private NodeId() {
    }

    /** The identity of the node keeping its stores under {@code root}; written on first use. */
    static String of(Path root) {
        Path file = root.resolve(FILE);
        try {
            Files.createDirectories(root);
            if (!Files.exists(file)) {
                try {
                    Files.writeString(file, UUID.randomUUID().toString(), StandardCharsets.UTF_8,
                            java.nio.file.StandardOpenOption.CREATE_NEW);
                } catch (FileAlreadyExistsException e) {
                    // another opener wrote it first: read theirs
                }
            }
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the node identity " + file, e);
        }
    }

    /** Whether commit {@code metadata} names a node other than {@code self} (a commit without a node: no). */
    static boolean committedByAnother(String metadata, String self) {
        if (metadata == null) {
            return false;
        }
        int at = metadata.indexOf(FIELD);
        if (at < 0) {
            return false;
        }
        String node = metadata.substring(at + FIELD.length()).trim();
        int end = node.indexOf(' ');
        return !(end < 0 ? node : node.substring(0, end)).equals(self);
    }

    /** Deletes {@code directory} and everything under it. */
    static void deleteTree(Path directory) {
        try (Stream<Path> walk = Files.walk(directory)) {
            List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
            for (Path path : paths) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot discard the stale store " + directory, e);
        }
    }
}
