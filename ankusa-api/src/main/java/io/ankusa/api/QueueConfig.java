package io.ankusa.api;

import io.ankusa.api.events.QueueListener;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executor;

/**
 * How to open a queue. Build with {@link #builder(Path)}; every value is checked.
 *
 * @param directory           the store's directory (created when missing)
 * @param backend             store backend name: {@code "rocksdb"} (default) or {@code "lmdb"}
 * @param tenantsMax          {@code tenants.max}: the most tenants the store will hold, 1..4 294 967 294
 *                            (default 1 000 000); a hook of the next new tenant is refused with
 *                            {@link TenantLimitException}
 * @param batchMaxHooks       most hooks in one ingest commit (default 1 024)
 * @param batchMaxBytes       most envelope bytes in one ingest commit (default 4 MiB; a single larger hook
 *                            still commits alone)
 * @param payloadMaxBytes     largest payload accepted (default 1 MiB)
 * @param ingestQueueCapacity most hooks waiting for the writer before ingest refuses with
 *                            {@link IngestOverloadedException} (default 65 536)
 * @param archive             whether ingest records an archive obligation per hook (default off)
 * @param clock               the clock for due times and dead-letter times (tests pass their own)
 * @param storeSettings       backend-specific settings passed to the store (for example {@code lmdb.mapSize})
 * @param dedupeWindow        how long a hook's idempotency key suppresses repeats of it, from its acceptance
 *                            (default 24 h)
 * @param auditRetention      how long audit entries are kept (default 90 days)
 * @param housekeepingInterval how often the queue's housekeeping thread reclaims hooks nobody owes, sweeps
 *                            expired dedupe keys and prunes the audit trail (default 1 s;
 *                            {@link Duration#ZERO} runs no housekeeping thread)
 * @param tenantPolicies      each tenant's share of dispatch and limits (default
 *                            {@link TenantPolicy#DEFAULT} for every tenant: weight 1, no limits)
 * @param completionExecutor  where ingest futures complete, so where a caller's {@code thenAccept} runs;
 *                            empty (the default) is the queue's own pool of daemon threads, where a
 *                            callback that blocks holds one pool thread and never the writer or another
 *                            producer's receipt; a supplied executor gets one task per hook. {@code Runnable::run}
 *                            completes on the writer thread (fastest, but a slow callback then stalls every tenant's
 *                            ingest)
 * @param nodeMaxBytes        {@code admission.node-max-bytes}: the node-wide limit on row bytes (the
 *                            aggregate's {@code bytes} counter); a hook that would pass it is refused with
 *                            {@link TenantOverloadedException} ({@link TenantOverloadedException.Reason#NODE_FULL})
 *                            and writes nothing ({@link Long#MAX_VALUE}, the default: no limit)
 * @param listeners           who receives the queue's events ({@link QueueListener}), each through a bounded
 *                            hand-off of its own, never on the writer thread (default none)
 * @param eventCapacity       {@code events.capacity}: most events waiting for one listener before new ones
 *                            are dropped and counted (default 8 192)
 * @param attemptsPerDelivery {@code attempts.per-delivery}: most attempts the attempt history keeps per
 *                            delivery, 0..1 000 (default {@value #DEFAULT_ATTEMPTS_PER_DELIVERY}; 0 records no history)
 * @param attemptsRetention   {@code attempts.retention}: how long the attempt history keeps an attempt
 *                            (default 7 days)
 * @param attemptsMaxBytes    {@code attempts.max-bytes}: most key and value bytes the attempt history
 *                            keeps on the node; past it housekeeping prunes the oldest entries first
 *                            (default {@value #DEFAULT_ATTEMPTS_MAX_BYTES}, 4 GiB; {@link Long#MAX_VALUE}:
 *                            bounded by time only)
 * @param endpoints           {@code endpoint.*}: when an endpoint is disabled for failing, what a disabled
 *                            endpoint's deliveries do, and per-endpoint back-pressure (default
 *                            {@link EndpointSettings#DEFAULTS})
 */
public record QueueConfig(Path directory, String backend, long tenantsMax, int batchMaxHooks, long batchMaxBytes,
        int payloadMaxBytes, int ingestQueueCapacity, boolean archive, InstantSource clock,
        Map<String, String> storeSettings, Duration dedupeWindow, Duration auditRetention,
        Duration housekeepingInterval, TenantPolicies tenantPolicies, Optional<Executor> completionExecutor,
        long nodeMaxBytes, List<QueueListener> listeners, int eventCapacity, int attemptsPerDelivery,
        Duration attemptsRetention, long attemptsMaxBytes, EndpointSettings endpoints) {

    /** Default {@code tenants.max}. */
    public static final long DEFAULT_TENANTS_MAX = 1_000_000;

    /** Largest allowed {@code tenants.max}: ordinal 0xFFFFFFFF is reserved. */
    public static final long TENANTS_MAX_LIMIT = 4_294_967_294L;

    /** Default {@code events.capacity}. */
    public static final int DEFAULT_EVENT_CAPACITY = 8192;

    /** Default {@code attempts.per-delivery}. */
    public static final int DEFAULT_ATTEMPTS_PER_DELIVERY = 20;

    /** Default {@code attempts.max-bytes}: 4 GiB of history keys and values. */
    public static final long DEFAULT_ATTEMPTS_MAX_BYTES = 4L << 30;

    /** Largest {@code attempts.per-delivery}. */
    public static final int ATTEMPTS_PER_DELIVERY_LIMIT = 1_000;

    /**
     * The prefix of the string keys that pass a backend setting: {@code store.lmdb.mapSize} is the
     * setting {@code lmdb.mapSize}.
     */
    public static final String STORE_KEY_PREFIX = ConfigKeys.STORE_PREFIX;

    /**
     * Checks every value.
     *
     * @param directory the store's directory (created when missing)
     * @param backend store backend name: {@code "rocksdb"} (default) or {@code "lmdb"}
     * @param tenantsMax {@code tenants.max}: the most tenants the store will hold, 1..4 294 967 294 (default 1 000
     *     000); a hook of the next new tenant is refused with {@link TenantLimitException}
     * @param batchMaxHooks most hooks in one ingest commit (default 1 024)
     * @param batchMaxBytes most envelope bytes in one ingest commit (default 4 MiB; a single larger hook still commits
     *     alone)
     * @param payloadMaxBytes largest payload accepted (default 1 MiB)
     * @param ingestQueueCapacity most hooks waiting for the writer before ingest refuses with
     *     {@link IngestOverloadedException} (default 65 536)
     * @param archive whether ingest records an archive obligation per hook (default off)
     * @param clock the clock for due times and dead-letter times (tests pass their own)
     * @param storeSettings backend-specific settings passed to the store (for example {@code lmdb.mapSize})
     * @param dedupeWindow how long a hook's idempotency key suppresses repeats of it, from its acceptance (default 24
     *     h)
     * @param auditRetention how long audit entries are kept (default 90 days)
     * @param housekeepingInterval how often the queue's housekeeping thread reclaims hooks nobody owes, sweeps expired
     *     dedupe keys and prunes the audit trail (default 1 s; {@link Duration#ZERO} runs no housekeeping thread)
     * @param tenantPolicies each tenant's share of dispatch and limits (default weight 1, no limits)
     * @param completionExecutor where ingest futures complete (default: the queue's own pool, never the writer thread)
     * @param nodeMaxBytes the node-wide limit on row bytes, at least 1 ({@link Long#MAX_VALUE}, the default: no limit)
     * @param listeners who receives the queue's events (default none)
     * @param eventCapacity most events waiting for one listener (default 8 192)
     * @param attemptsPerDelivery most attempts the attempt history keeps per delivery, 0..1 000 (default 20; 0 records
     *     none)
     * @param attemptsRetention how long the attempt history keeps an attempt, at least 1 ms (default 7 days)
     * @param attemptsMaxBytes most key and value bytes of attempt history on the node, at least 1 (default 4 GiB)
     * @param endpoints endpoint state and back-pressure settings (default {@link EndpointSettings#DEFAULTS})
     */
    public QueueConfig {
        Objects.requireNonNull(endpoints, "endpoints");
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(clock, "clock");
        storeSettings = Map.copyOf(storeSettings);
        if (backend.isBlank()) {
            throw new IllegalArgumentException("backend must be named");
        }
        if (tenantsMax < 1 || tenantsMax > TENANTS_MAX_LIMIT) {
            throw new IllegalArgumentException("tenants.max must be in 1.." + TENANTS_MAX_LIMIT + ": " + tenantsMax);
        }
        if (batchMaxHooks < 1 || batchMaxBytes < 1 || payloadMaxBytes < 0 || ingestQueueCapacity < 1) {
            throw new IllegalArgumentException("batch limits and capacity must be positive, payload limit >= 0");
        }
        Objects.requireNonNull(dedupeWindow, "dedupeWindow");
        Objects.requireNonNull(auditRetention, "auditRetention");
        Objects.requireNonNull(housekeepingInterval, "housekeepingInterval");
        Objects.requireNonNull(tenantPolicies, "tenantPolicies");
        Objects.requireNonNull(completionExecutor, "completionExecutor");
        if (nodeMaxBytes < 1) {
            throw new IllegalArgumentException("admission.node-max-bytes must be at least 1: " + nodeMaxBytes);
        }
        listeners = List.copyOf(listeners);
        if (eventCapacity < 1) {
            throw new IllegalArgumentException("events.capacity must be positive: " + eventCapacity);
        }
        if (attemptsPerDelivery < 0 || attemptsPerDelivery > ATTEMPTS_PER_DELIVERY_LIMIT) {
            throw new IllegalArgumentException("attempts.per-delivery must be in 0.." + ATTEMPTS_PER_DELIVERY_LIMIT
                    + ": " + attemptsPerDelivery);
        }
        Objects.requireNonNull(attemptsRetention, "attemptsRetention");
        if (attemptsRetention.toMillis() < 1) {
            throw new IllegalArgumentException("attempts.retention must be at least 1 ms: " + attemptsRetention);
        }
        if (attemptsMaxBytes < 1) {
            throw new IllegalArgumentException("attempts.max-bytes must be at least 1: " + attemptsMaxBytes);
        }
        if (dedupeWindow.toMillis() < 1 || auditRetention.toMillis() < 1 || housekeepingInterval.isNegative()) {
            throw new IllegalArgumentException("dedupe window and audit retention must be at least 1 ms, "
                    + "the housekeeping interval >= 0");
        }
    }

    /**
     * Refuses {@code hook} when its payload is over {@code payloadMaxBytes}: the check
     * {@code Queue.ingest} makes before the writer sees a hook (every other input rule is enforced
     * when the {@link Hook} is built), for callers that accept hooks on the queue's behalf (a Kafka
     * intake) and must refuse the same hooks with the same error.
     *
     * @param hook            the hook to check
     * @param payloadMaxBytes the limit, {@link #payloadMaxBytes()} of the queues that will hold the hook
     * @throws InvalidHookException ({@link InvalidHookException.Reason#PAYLOAD_TOO_LARGE}) when the
     *         payload is over the limit
     */
    public static void checkPayload(Hook hook, int payloadMaxBytes) {
        if (hook.payloadLength() > payloadMaxBytes) {
            throw new InvalidHookException(InvalidHookException.Reason.PAYLOAD_TOO_LARGE,
                    "payload of hook '" + hook.id() + "' is " + hook.payloadLength() + " bytes; the limit is "
                            + payloadMaxBytes);
        }
    }

    /**
     * A config from string keys, as docs/configuration.md lists them ({@code directory},
     * {@code backend}, {@code tenants.max}, {@code batch.max-hooks}, …, {@code store.<setting>});
     * keys not given keep their defaults. The clock, tenant policies and completion executor are
     * objects, not strings: set them with {@link #builder(Path)} and {@link Builder#configure}.
     *
     * @param values the keys and their values; {@code directory} is required
     * @return the config
     * @throws IllegalArgumentException naming every unknown key and every bad value
     */
    public static QueueConfig fromMap(Map<String, String> values) {
        String directory = Objects.requireNonNull(values, "values").get(ConfigKeys.DIRECTORY);
        if (directory == null || directory.isBlank()) {
            throw new IllegalArgumentException("queue configuration: '" + ConfigKeys.DIRECTORY + "' is required");
        }
        return builder(Path.of(directory.strip())).configure(values).build();
    }

    /**
     * The keys {@link #fromMap} and {@link Builder#configure} accept by name, in the order
     * docs/configuration.md lists them ({@code directory} first); besides these, every key that
     * starts with {@link #STORE_KEY_PREFIX} passes a backend setting. For tools that document or
     * check the keys (the Spring Boot starter's configuration metadata).
     *
     * @return the keys, unmodifiable
     */
    public static List<String> keys() {
        return List.copyOf(ConfigKeys.names());
    }

    /**
     * {@link #fromMap} over {@code properties} (every key and value must be a string).
     *
     * @param properties the keys and their values; {@code directory} is required
     * @return the config
     * @throws IllegalArgumentException naming every unknown key and every bad value
     */
    public static QueueConfig fromProperties(Properties properties) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String key : Objects.requireNonNull(properties, "properties").stringPropertyNames()) {
            values.put(key, properties.getProperty(key));
        }
        if (values.size() != properties.size()) {
            throw new IllegalArgumentException("queue configuration: every property key and value must be a string");
        }
        return fromMap(values);
    }

    /**
     * A builder with the defaults for a store in {@code directory}.
     *
     * @param directory the store's directory
     * @return a new builder
     */
    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /** Builds a {@link QueueConfig}. */
    public static final class Builder {
        private final Path directory;
        private String backend = "rocksdb";
        private long tenantsMax = DEFAULT_TENANTS_MAX;
        private int batchMaxHooks = 1_024;
        private long batchMaxBytes = 4L << 20;
        private int payloadMaxBytes = 1 << 20;
        private int ingestQueueCapacity = 65_536;
        private boolean archive;
        private InstantSource clock = InstantSource.system();
        private EndpointSettings endpoints = EndpointSettings.DEFAULTS;
        private final Map<String, String> storeSettings = new LinkedHashMap<>();
        private Duration dedupeWindow = Duration.ofHours(24);
        private Duration auditRetention = Duration.ofDays(90);
        private Duration housekeepingInterval = Duration.ofSeconds(1);
        private TenantPolicies tenantPolicies = TenantPolicies.uniform(TenantPolicy.DEFAULT);
        private Executor completionExecutor;
        private long nodeMaxBytes = Long.MAX_VALUE;
        private final List<QueueListener> listeners = new ArrayList<>();
        private int eventCapacity = DEFAULT_EVENT_CAPACITY;
        private int attemptsPerDelivery = DEFAULT_ATTEMPTS_PER_DELIVERY;
        private Duration attemptsRetention = Duration.ofDays(7);
        private long attemptsMaxBytes = DEFAULT_ATTEMPTS_MAX_BYTES;

        private Builder(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
        }

        /**
         * Sets the store backend's name.
         *
         * @param backend the store backend's name
         * @return this builder
         */
        public Builder backend(String backend) {
            this.backend = backend;
            return this;
        }

        /**
         * Sets {@code tenants.max}.
         *
         * @param tenantsMax {@code tenants.max}
         * @return this builder
         */
        public Builder tenantsMax(long tenantsMax) {
            this.tenantsMax = tenantsMax;
            return this;
        }

        /**
         * Sets most hooks per ingest commit.
         *
         * @param batchMaxHooks most hooks per ingest commit
         * @return this builder
         */
        public Builder batchMaxHooks(int batchMaxHooks) {
            this.batchMaxHooks = batchMaxHooks;
            return this;
        }

        /**
         * Sets most envelope bytes per ingest commit.
         *
         * @param batchMaxBytes most envelope bytes per ingest commit
         * @return this builder
         */
        public Builder batchMaxBytes(long batchMaxBytes) {
            this.batchMaxBytes = batchMaxBytes;
            return this;
        }

        /**
         * Sets largest payload accepted.
         *
         * @param payloadMaxBytes largest payload accepted
         * @return this builder
         */
        public Builder payloadMaxBytes(int payloadMaxBytes) {
            this.payloadMaxBytes = payloadMaxBytes;
            return this;
        }

        /**
         * Sets most hooks waiting for the writer.
         *
         * @param ingestQueueCapacity most hooks waiting for the writer
         * @return this builder
         */
        public Builder ingestQueueCapacity(int ingestQueueCapacity) {
            this.ingestQueueCapacity = ingestQueueCapacity;
            return this;
        }

        /**
         * Sets whether ingest records archive obligations.
         *
         * @param archive whether ingest records archive obligations
         * @return this builder
         */
        public Builder archive(boolean archive) {
            this.archive = archive;
            return this;
        }

        /**
         * Sets the clock.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(InstantSource clock) {
            this.clock = clock;
            return this;
        }

        /**
         * A backend setting.
         *
         * @param key the setting's name, such as {@code lmdb.mapSize}
         * @param value its value
         * @return this builder
         */
        public Builder storeSetting(String key, String value) {
            storeSettings.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Sets how long an idempotency key suppresses repeats.
         *
         * @param dedupeWindow how long an idempotency key suppresses repeats
         * @return this builder
         */
        public Builder dedupeWindow(Duration dedupeWindow) {
            this.dedupeWindow = dedupeWindow;
            return this;
        }

        /**
         * Sets how long audit entries are kept.
         *
         * @param auditRetention how long audit entries are kept
         * @return this builder
         */
        public Builder auditRetention(Duration auditRetention) {
            this.auditRetention = auditRetention;
            return this;
        }

        /**
         * Sets how often housekeeping runs; {@link Duration#ZERO} for none.
         *
         * @param housekeepingInterval how often housekeeping runs; {@link Duration#ZERO} for none
         * @return this builder
         */
        public Builder housekeepingInterval(Duration housekeepingInterval) {
            this.housekeepingInterval = housekeepingInterval;
            return this;
        }

        /**
         * Each tenant's share of dispatch and limits.
         *
         * @param tenantPolicies the application's tenant policies
         * @return this builder
         */
        public Builder tenantPolicies(TenantPolicies tenantPolicies) {
            this.tenantPolicies = tenantPolicies;
            return this;
        }

        /**
         * Where ingest futures complete (and a caller's callbacks on them run); the queue's own
         * pool when not set. See {@link QueueConfig#completionExecutor()}.
         *
         * @param completionExecutor the executor
         * @return this builder
         */
        public Builder completionExecutor(Executor completionExecutor) {
            this.completionExecutor = Objects.requireNonNull(completionExecutor, "completionExecutor");
            return this;
        }

        /**
         * Sets the node-wide limit on row bytes ({@code admission.node-max-bytes}): a hook that would
         * take the node's row bytes past it is refused with {@link TenantOverloadedException}
         * ({@link TenantOverloadedException.Reason#NODE_FULL}) and writes nothing.
         *
         * @param nodeMaxBytes the most row bytes the node holds, at least 1; {@link Long#MAX_VALUE} for no limit
         * @return this builder
         */
        public Builder nodeMaxBytes(long nodeMaxBytes) {
            this.nodeMaxBytes = nodeMaxBytes;
            return this;
        }

        /**
         * Adds a listener for the queue's events (ingest batches, quarantined records); see
         * {@link QueueListener} for its thread and its bounded hand-off.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder listener(QueueListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Sets {@code events.capacity}: most events waiting for one listener before new ones are
         * dropped and counted.
         *
         * @param eventCapacity the capacity, at least 1
         * @return this builder
         */
        public Builder eventCapacity(int eventCapacity) {
            this.eventCapacity = eventCapacity;
            return this;
        }

        /**
         * Sets {@code attempts.per-delivery}: most attempts the attempt history keeps per delivery
         * (the oldest go first); 0 records no history.
         *
         * @param attemptsPerDelivery the bound, 0..{@value QueueConfig#ATTEMPTS_PER_DELIVERY_LIMIT}
         * @return this builder
         */
        public Builder attemptsPerDelivery(int attemptsPerDelivery) {
            this.attemptsPerDelivery = attemptsPerDelivery;
            return this;
        }

        /**
         * Sets the endpoint settings ({@code endpoint.*} keys).
         *
         * @param endpoints the settings
         * @return this builder
         */
        public Builder endpoints(EndpointSettings endpoints) {
            this.endpoints = Objects.requireNonNull(endpoints, "endpoints");
            return this;
        }

        /**
         * Sets {@code attempts.retention}: how long the attempt history keeps an attempt
         * (housekeeping removes older ones).
         *
         * @param attemptsRetention the retention, at least 1 ms
         * @return this builder
         */
        public Builder attemptsRetention(Duration attemptsRetention) {
            this.attemptsRetention = attemptsRetention;
            return this;
        }

        /**
         * Sets {@code attempts.max-bytes}: the most key and value bytes of attempt history the node
         * keeps; housekeeping prunes the oldest entries first past it, as it prunes those past the
         * retention.
         *
         * @param attemptsMaxBytes the bound in bytes, at least 1 ({@link Long#MAX_VALUE}: time only)
         * @return this builder
         */
        public Builder attemptsMaxBytes(long attemptsMaxBytes) {
            this.attemptsMaxBytes = attemptsMaxBytes;
            return this;
        }

        /**
         * The endpoint settings set so far (the {@code endpoint.*} keys change them one at a time).
         *
         * @return the settings
         */
        EndpointSettings endpoints() {
            return endpoints;
        }

        /**
         * Sets the keys in {@code values} (the keys of {@link QueueConfig#fromMap}; a
         * {@code directory} key is ignored, this builder has one).
         *
         * @param values the keys and their values
         * @return this builder
         * @throws IllegalArgumentException naming every unknown key and every bad value
         */
        public Builder configure(Map<String, String> values) {
            ConfigKeys.apply(this, values);
            return this;
        }

        /** {@return the config} */
        public QueueConfig build() {
            return new QueueConfig(directory, backend, tenantsMax, batchMaxHooks, batchMaxBytes, payloadMaxBytes,
                    ingestQueueCapacity, archive, clock, storeSettings, dedupeWindow, auditRetention,
                    housekeepingInterval, tenantPolicies, Optional.ofNullable(completionExecutor), nodeMaxBytes,
                    listeners, eventCapacity, attemptsPerDelivery, attemptsRetention, attemptsMaxBytes, endpoints);
        }
    }
}
