package io.ankusa.queue.deliveries;

import io.ankusa.api.EndpointSecret;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.keys.ColumnFamilies;
import io.ankusa.keys.KeySpan;
import io.ankusa.keys.RegistryKey;
import io.ankusa.store.Durability;
import io.ankusa.store.KeyValue;
import io.ankusa.store.Scan;
import io.ankusa.store.Store;
import io.ankusa.store.StoreCorruptionException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The endpoint registry's rows, the {@link RegistryKey ?R} family: each tenant's keys are read
 * once into memory (one prefix scan, on the tenant's first use) and kept equal to the store by
 * every write going through here. Writes are serialized on the book and each is one synced
 * commit; reads ({@link #tenant}) take no lock and see an immutable snapshot, so the ingest
 * writer reads the registry of a hook's tenant without waiting for a registry change.
 *
 * <p>A removed endpoint keeps its key with an empty value, so {@link Tenant#nextSink()} never
 * hands its sink number out again.
 */
public final class RegistryBook {

    private static final int VERSION = 1;

    private final Store store;
    private final ConcurrentHashMap<String, Tenant> tenants = new ConcurrentHashMap<>();
    /** Moves after every change to {@link #tenants}' endpoints (not on a load, which changes none). */
    private final AtomicLong generation = new AtomicLong();

    /** Whether the store holds any registry key; null until first asked, then set true by {@link #put}. */
    private volatile Boolean anyKey;

    /** The book of {@code store}; reads nothing yet. */
    public RegistryBook(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * One tenant's registry as stored: its endpoints by sink (with every stored secret, expired or
     * not, and enabled as stored: {@code true}) and the next sink number to allocate.
     *
     * @param endpoints the live endpoints, by sink
     * @param nextSink  one more than the highest sink ever allocated (live or removed); 0 when none
     */
    public record Tenant(Map<Integer, RegisteredEndpoint> endpoints, int nextSink) {

        static final Tenant NONE = new Tenant(Map.of(), 0);

        /**
         * Keeps an unmodifiable copy, in sink order.
         *
         * @param endpoints the live endpoints, by sink
         * @param nextSink  the next sink number to allocate
         */
        public Tenant {
            endpoints = Collections.unmodifiableMap(new TreeMap<>(endpoints));
        }

        /** Whether the tenant ever registered an endpoint. */
        public boolean known() {
            return nextSink > 0;
        }

        /**
         * The sinks of the live endpoints subscribed to {@code eventType} ({@link
         * RegisteredEndpoint#subscribes}), in sink order: where the ingest writer fans a hook of
         * that type out to. An endpoint's stored state is not consulted: a disabled endpoint's
         * rows wait for it as any other row of a disabled endpoint does.
         */
        public List<Integer> subscribers(String eventType) {
            List<Integer> sinks = new ArrayList<>();
            for (RegisteredEndpoint endpoint : endpoints.values()) {
                if (endpoint.subscribes(eventType)) {
                    sinks.add(endpoint.sink());
                }
            }
            return sinks;
        }

        /** The live endpoint of id {@code id}. */
        public Optional<RegisteredEndpoint> byId(String id) {
            return endpoints.values().stream().filter(e -> e.id().equals(id)).findFirst();
        }
    }

    /** {@code tenant}'s registry (from memory after its first read). */
    public Tenant tenant(String tenant) {
        Tenant known = tenants.get(tenant);
        return known != null ? known : load(tenant);
    }

    /**
     * A number that moves after every change (put, remove, erase), once the new snapshot is in
     * place: a reader that saw generation {@code g} and reads {@link #tenant} after sees a
     * snapshot at least as new as {@code g}.
     *
     * @return the book's generation
     */
    public long generation() {
        return generation.get();
    }

    /**
     * Whether any endpoint was ever registered in the store (removed and erased ones may count):
     * one seek on the first call, a field read after it. When it is {@code false}, every tenant's
     * registry is empty, and a caller need not resolve a tenant to ask.
     *
     * @return false when no registry key is stored
     */
    public boolean anyRegistered() {
        Boolean known = anyKey;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (anyKey == null) {
                try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(RegistryKey.FAMILY.between()))) {
                    anyKey = scan.hasNext();
                }
            }
            return anyKey;
        }
    }

    /** Writes {@code endpoint} under its tenant and sink in one synced commit. */
    public synchronized void put(RegisteredEndpoint endpoint) {
        Tenant before = tenant(endpoint.tenant());
        byte[] key = new RegistryKey(endpoint.tenant(), endpoint.sink()).encode();
        new DeliveryBatch().put(ColumnFamilies.INDEX, key, encode(endpoint)).commit(store, Durability.SYNC);
        TreeMap<Integer, RegisteredEndpoint> after = new TreeMap<>(before.endpoints());
        after.put(endpoint.sink(), endpoint);
        tenants.put(endpoint.tenant(), new Tenant(Collections.unmodifiableMap(after),
                Math.max(before.nextSink(), endpoint.sink() + 1)));
        anyKey = true;
        generation.incrementAndGet();
    }

    /** Removes {@code tenant}'s endpoint under {@code sink}, keeping its key as a tombstone; one synced commit. */
    public synchronized void remove(String tenant, int sink) {
        Tenant before = tenant(tenant);
        new DeliveryBatch().put(ColumnFamilies.INDEX, new RegistryKey(tenant, sink).encode(), new byte[0])
                .commit(store, Durability.SYNC);
        TreeMap<Integer, RegisteredEndpoint> after = new TreeMap<>(before.endpoints());
        after.remove(sink);
        tenants.put(tenant, new Tenant(Collections.unmodifiableMap(after), before.nextSink()));
        generation.incrementAndGet();
    }

    /**
     * Deletes every registry key of {@code tenant} (tenant erasure) in one synced range delete.
     *
     * @return how many endpoints it had, removed ones included
     */
    public synchronized long erase(String tenant) {
        long keys = tenant(tenant).nextSink() == 0 ? 0 : countKeys(tenant);
        KeySpan span = RegistryKey.tenantRange(tenant);
        new DeliveryBatch().deleteRange(ColumnFamilies.INDEX, span.from(), span.to()).commit(store, Durability.SYNC);
        tenants.remove(tenant);
        generation.incrementAndGet();
        return keys;
    }

    private long countKeys(String tenant) {
        long n = 0;
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(RegistryKey.tenantRange(tenant)))) {
            while (scan.hasNext()) {
                scan.next();
                n++;
            }
        }
        return n;
    }

    private Tenant load(String tenant) {
        TreeMap<Integer, RegisteredEndpoint> endpoints = new TreeMap<>();
        int next = 0;
        try (Scan scan = store.scan(ColumnFamilies.INDEX, Ranges.of(RegistryKey.tenantRange(tenant)))) {
            while (scan.hasNext()) {
                KeyValue kv = scan.next();
                RegistryKey key = RegistryKey.decode(kv.key());
                next = Math.max(next, key.sink() + 1);
                if (kv.value().length > 0) {
                    endpoints.put(key.sink(), decode(tenant, key.sink(), kv.value()));
                }
            }
        }
        Tenant loaded = next == 0 ? Tenant.NONE : new Tenant(Collections.unmodifiableMap(endpoints), next);
        Tenant raced = tenants.putIfAbsent(tenant, loaded);
        return raced != null ? raced : loaded;
    }

    /** Version 1: every field length-prefixed, in the order of {@link RegisteredEndpoint}'s components. */
    static byte[] encode(RegisteredEndpoint e) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            string(out, e.id());
            string(out, e.url().toString());
            string(out, e.description());
            out.writeShort(e.eventTypes().size());
            for (String type : e.eventTypes()) {
                string(out, type);
            }
            out.writeInt(e.rateLimit());
            out.writeInt(e.maxInflight());
            pairs(out, e.headers());
            pairs(out, e.metadata());
            out.writeShort(e.secrets().size());
            for (EndpointSecret secret : e.secrets()) {
                string(out, secret.secret());
                out.writeLong(secret.expiresAt());
            }
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        return bytes.toByteArray();
    }

    static RegisteredEndpoint decode(String tenant, int sink, byte[] value) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int version = in.readUnsignedByte();
            if (version != VERSION) {
                throw new StoreCorruptionException("registry entry of version " + version + " (this release reads 1)");
            }
            String id = string(in);
            URI url = URI.create(string(in));
            String description = string(in);
            int types = in.readUnsignedShort();
            List<String> eventTypes = new ArrayList<>(types);
            for (int i = 0; i < types; i++) {
                eventTypes.add(string(in));
            }
            int rate = in.readInt();
            int inFlight = in.readInt();
            Map<String, String> headers = pairs(in);
            Map<String, String> metadata = pairs(in);
            int count = in.readUnsignedShort();
            List<EndpointSecret> secrets = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                secrets.add(new EndpointSecret(string(in), in.readLong()));
            }
            if (in.available() != 0) {
                throw new StoreCorruptionException("registry entry with " + in.available() + " bytes left over");
            }
            return new RegisteredEndpoint(tenant, id, sink, url, description, eventTypes, rate, inFlight, headers,
                    metadata, secrets, true);
        } catch (IOException | IllegalArgumentException e) {
            throw new StoreCorruptionException("registry entry of tenant sink " + sink + " does not decode: "
                    + e.getClass().getSimpleName());
        }
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String string(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("string length " + length);
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static void pairs(DataOutputStream out, Map<String, String> pairs) throws IOException {
        out.writeShort(pairs.size());
        for (Map.Entry<String, String> e : pairs.entrySet()) {
            string(out, e.getKey());
            string(out, e.getValue());
        }
    }

    private static Map<String, String> pairs(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(string(in), string(in));
        }
        return out;
    }
}
