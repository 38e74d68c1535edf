package io.ankusa.tests.crash;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A hook the child acknowledged: its receipt's seq was printed only after the synced commit.
 *
 * @param id     hook id
 * @param tenant the tenant it is filed under ({@code default} for none)
 * @param seq    the receipt's seq
 * @param sinks  its sinks
 */
record AckedHook(String id, String tenant, long seq, List<Integer> sinks) {

    AckedHook {
        sinks = List.copyOf(sinks);
    }

    /**
     * Parses an {@code ack} line; empty for any other line and for an ack line cut short by the
     * kill (a whole one ends with {@code " ."}).
     */
    static Optional<AckedHook> parse(String line) {
        String[] f = line.split(" ");
        if (f.length != 6 || !f[0].equals("ack") || !f[5].equals(".")) {
            return Optional.empty();
        }
        return Optional.of(new AckedHook(f[1], f[2], Long.parseLong(f[3]),
                Arrays.stream(f[4].split(",")).map(Integer::valueOf).toList()));
    }
}
