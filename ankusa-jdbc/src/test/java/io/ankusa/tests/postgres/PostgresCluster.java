package io.ankusa.tests.postgres;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * A private PostgreSQL cluster for one test class or bench run: {@code initdb} into a fresh
 * temporary directory, a server listening on 127.0.0.1 only, on a free port, with PostgreSQL's
 * durable defaults ({@code fsync=on}, {@code synchronous_commit=on}, set explicitly) and the
 * caller's extra settings, stopped and deleted on {@link #close()}. The one copy the outbox tests,
 * the starter's outbox tests and the benches share (ankusa-jdbc's test jar).
 *
 * <p>{@code initdb} refuses to run as root: when this JVM runs as root, the cluster's directory is
 * handed to the {@code postgres} user (created by the distribution's package) and every server
 * command runs through {@code runuser -u postgres}. Otherwise it runs as the current user.
 *
 * <p>The binaries: {@code ankusa.pgBin} if set, else the newest
 * {@code /usr/lib/postgresql/<version>/bin}, else the directory of an {@code initdb} on the
 * {@code PATH}. The build's CI script (and, for the benches, {@code postgresql-setup.sh}) installs
 * the distribution's {@code postgresql} package when none is found.
 */
public final class PostgresCluster implements AutoCloseable {

    private static final String USER = "postgres";

    private final Path bin;
    private final Path home;
    private final int port;
    private final boolean asRoot;

    private PostgresCluster(Path bin, Path home, int port, boolean asRoot) {
        this.bin = bin;
        this.home = home;
        this.port = port;
        this.asRoot = asRoot;
    }

    /**
     * Creates and starts a cluster; the caller closes it.
     *
     * @param settings server settings beyond the defaults, as {@code name=value} ({@code -c} options)
     * @return the running cluster
     * @throws IOException when a command cannot run or the directory cannot be made
     * @throws InterruptedException when interrupted while a command runs
     */
    public static PostgresCluster start(String... settings) throws IOException, InterruptedException {
        Path bin = binaries().orElseThrow(() -> new IllegalStateException("no PostgreSQL binaries found (initdb): "
                + "install the postgresql package or set -Dankusa.pgBin"));
        boolean asRoot = "root".equals(System.getProperty("user.name"));
        Path home = Files.createTempDirectory("ankusa-pg-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        PostgresCluster cluster = new PostgresCluster(bin, home, freePort(), asRoot);
        try {
            if (asRoot) {
                run(List.of("chown", USER, home.toString()));
            }
            cluster.server(List.of("initdb", "-D", cluster.data().toString(), "-U", USER, "--auth=trust", "-E", "UTF8",
                    "--no-locale"));
            String options = String.join(" ", "-c listen_addresses=127.0.0.1", "-c port=" + cluster.port,
                    "-c unix_socket_directories=" + home, "-c fsync=on", "-c synchronous_commit=on",
                    "-c max_connections=50");
            for (String setting : settings) {
                options += " -c " + setting;
            }
            cluster.server(List.of("pg_ctl", "-D", cluster.data().toString(),
                    "-l", home.resolve("server.log").toString(),
                    "-w", "-t", "120", "-o", options, "start"));
        } catch (IOException | RuntimeException | InterruptedException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /**
     * A new connection as the superuser (trust authentication, loopback only).
     *
     * @return the connection
     * @throws SQLException when the server does not answer
     */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url());
    }

    /** {@return the JDBC URL of the cluster's {@code postgres} database as the superuser} */
    public String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=" + USER;
    }

    /**
     * A data source of new connections to the cluster, named {@code application} in pg_stat_activity.
     *
     * @param application the connections' application name
     * @return the data source
     */
    public DataSource dataSource(String application) {
        return new UrlDataSource(url(), application);
    }

    /**
     * The server's version string, for a bench's header.
     *
     * @return {@code SHOW server_version}
     * @throws SQLException when the server does not answer
     */
    public String version() throws SQLException {
        try (Connection c = connect(); var s = c.createStatement(); var r = s.executeQuery("SHOW server_version")) {
            r.next();
            return r.getString(1);
        }
    }

    /** Stops the server (fast shutdown) and deletes the cluster's directory. */
    @Override
    public void close() throws IOException {
        try {
            if (Files.exists(data().resolve("postmaster.pid"))) {
                server(List.of("pg_ctl", "-D", data().toString(), "-w", "-m", "fast", "stop"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping PostgreSQL", e);
        } finally {
            try (Stream<Path> paths = Files.walk(home)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private Path data() {
        return home.resolve("data");
    }

    private void server(List<String> command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asRoot) {
            full.addAll(List.of("runuser", "-u", USER, "--"));
        }
        full.add(bin.resolve(command.get(0)).toString());
        full.addAll(command.subList(1, command.size()));
        run(full);
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed with exit code " + process.exitValue() + ":\n"
                    + new String(output, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static Optional<Path> binaries() throws IOException {
        String configured = System.getProperty("ankusa.pgBin", "");
        if (!configured.isBlank()) {
            return Optional.of(Path.of(configured));
        }
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> dirs = Files.list(versions)) {
                Optional<Path> newest = dirs.map(d -> d.resolve("bin"))
                        .filter(d -> Files.isExecutable(d.resolve("initdb")))
                        .max(Comparator.comparingInt(PostgresCluster::majorVersion));
                if (newest.isPresent()) {
                    return newest;
                }
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path initdb = Path.of(dir).resolve("initdb");
            if (!dir.isEmpty() && Files.isExecutable(initdb)) {
                return Optional.of(initdb.toRealPath().getParent());
            }
        }
        return Optional.empty();
    }

    private static int majorVersion(Path bin) {
        try {
            Path parent = bin.getParent();
            Path version = parent == null ? null : parent.getFileName();
            return version == null ? 0 : Integer.parseInt(version.toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
