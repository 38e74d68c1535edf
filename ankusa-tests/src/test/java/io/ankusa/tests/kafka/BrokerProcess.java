package io.ankusa.tests.kafka;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * A child JVM's main: formats a single-node KRaft log directory (combined controller and broker)
 * and runs the broker on 127.0.0.1 only. Arguments: directory, broker port, controller port.
 * Kafka's classes are reached by reflection: the Scala jars are test-scope only.
 */
public final class BrokerProcess {

    private BrokerProcess() {
    }

    /**
     * Formats and runs the broker until killed.
     *
     * @param args directory, broker port, controller port
     * @throws Exception when the broker cannot start
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int port = Integer.parseInt(args[1]);
        int controllerPort = Integer.parseInt(args[2]);
        Files.createDirectories(dir);
        Path properties = dir.resolve("server.properties");
        String config = String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("logs"),
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=3",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "group.classic.min.session.timeout.ms=1000",
                "auto.create.topics.enable=true",
                "log.flush.interval.messages=9223372036854775807",
                "") ;
        Files.writeString(properties, config, StandardCharsets.UTF_8);
        Class<?> storageTool = Class.forName("kafka.tools.StorageTool");
        Method execute = storageTool.getMethod("execute", String[].class, PrintStream.class);
        String clusterId = uuidBase64();
        // "--cluster-id=<id>", not "-t <id>": a base64 id may start with '-', which the tool's parser then
        // reads as an option and refuses the format ("expected one argument").
        int rc = (int) execute.invoke(null, new String[] {"format", "--cluster-id=" + clusterId, "-c",
            properties.toString(),
            "--standalone", "--ignore-formatted"}, System.out);
        if (rc != 0) {
            System.out.println("error: format failed with " + rc);
            System.exit(2);
        }
        Class.forName("kafka.Kafka").getMethod("main", String[].class).invoke(null, (Object) new String[] {properties.toString()});
    }

    private static String uuidBase64() throws IOException {
        UUID uuid = UUID.randomUUID();
        byte[] bytes = new byte[16];
        long hi = uuid.getMostSignificantBits();
        long lo = uuid.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (hi >>> (56 - 8 * i));
            bytes[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
