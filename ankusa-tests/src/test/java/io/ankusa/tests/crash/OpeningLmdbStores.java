package io.ankusa.tests.crash;

import io.ankusa.store.Direction;
import io.ankusa.store.FamilySpec;
import io.ankusa.store.KeyRange;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreException;
import io.ankusa.store.StoreOptions;
import io.ankusa.store.Stores;
import java.nio.file.Path;
import java.util.List;

/**
 * Child JVM main: opens each LMDB store named on the command line and scans it whole, printing
 * {@code opened DIR ROWS} or {@code refused DIR REASON MESSAGE}, one line per store, then exits 0.
 * A store that crashes LMDB (SIGBUS) kills this process instead, which the parent sees as a
 * missing line and a signal exit status.
 */
public final class OpeningLmdbStores {

    /** The one family the stores hold. */
    static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));

    private OpeningLmdbStores() {
    }

    /** Opens every directory in {@code args}. */
    public static void main(String[] args) {
        for (String arg : args) {
            Path dir = Path.of(arg);
            try (Store store = Stores.open("lmdb", StoreOptions.existing(dir, FAMILIES));
                    Scan scan = store.scan("rows", KeyRange.all(), Direction.FORWARD)) {
                long rows = 0;
                while (scan.hasNext()) {
                    scan.next();
                    rows++;
                }
                System.out.println("opened " + dir + " " + rows);
            } catch (StoreException e) {
                System.out.println("refused " + dir + " " + e.reason() + " " + e.getMessage().replace('\n', ' '));
            }
            System.out.flush();
        }
    }
}
