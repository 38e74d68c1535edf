package io.ankusa.queue.upkeep;

import io.ankusa.api.AuditAction;
import io.ankusa.api.AuditEntry;
import io.ankusa.api.EndpointRegistry;
import io.ankusa.api.EndpointRegistryException;
import io.ankusa.api.EndpointRegistryException.Reason;
import io.ankusa.api.EndpointSecret;
import io.ankusa.api.EndpointSpec;
import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.queue.deliveries.RegistryBook;
import io.ankusa.queue.ledger.EndpointLedger;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * The queue's {@link EndpointRegistry}: validates each change ({@link RegistryRules}), writes it
 * through the {@link RegistryBook} (one synced commit) and records one audit entry. Reads leave out
 * the secrets whose overlap has ended by the queue's clock (read-time expiry: nothing runs when a
 * secret ends) and report an endpoint enabled unless its stored endpoint state says disabled.
 * Changes are serialized on the book's lock, so two registrations never get the same sink.
 */
public final class AuditedRegistry implements EndpointRegistry {

    private final RegistryBook book;
    private final ToLongFunction<String> ordinals;
    private final EndpointLedger states;
    private final AuditLog audit;
    private final InstantSource clock;
    private final Function<URI, Optional<String>> addressCheck;
    private final Optional<String> actor;

    /**
     * Over the queue's parts, without an address check.
     *
     * @param ordinals a tenant's ordinal, or 0 when the queue has none for it yet
     */
    public AuditedRegistry(RegistryBook book, ToLongFunction<String> ordinals, EndpointLedger states, AuditLog audit,
            InstantSource clock) {
        this(book, ordinals, states, audit, clock, url -> Optional.empty(), Optional.empty());
    }

    private AuditedRegistry(RegistryBook book, ToLongFunction<String> ordinals, EndpointLedger states, AuditLog audit,
            InstantSource clock, Function<URI, Optional<String>> addressCheck, Optional<String> actor) {
        this.book = Objects.requireNonNull(book, "book");
        this.ordinals = Objects.requireNonNull(ordinals, "ordinals");
        this.states = Objects.requireNonNull(states, "states");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.addressCheck = Objects.requireNonNull(addressCheck, "addressCheck");
        this.actor = Objects.requireNonNull(actor, "actor");
    }

    @Override
    public EndpointRegistry withAddressCheck(Function<URI, Optional<String>> refusal) {
        Objects.requireNonNull(refusal, "refusal");
        return new AuditedRegistry(book, ordinals, states, audit, clock, url -> addressCheck.apply(url)
                .or(() -> refusal.apply(url)), actor);
    }

    @Override
    public EndpointRegistry actingAs(String actor) {
        return new AuditedRegistry(book, ordinals, states, audit, clock, addressCheck,
                Optional.of(AuditEntry.requireActor(actor)));
    }

    @Override
    public RegisteredEndpoint add(String tenant, EndpointSpec spec) {
        RegistryRules.tenant(tenant);
        RegistryRules.spec(spec, addressCheck);
        synchronized (book) {
            RegistryBook.Tenant known = book.tenant(tenant);
            String id = spec.id().orElseGet(RegistryRules::generatedId);
            if (known.byId(id).isPresent()) {
                throw new EndpointRegistryException(Reason.DUPLICATE_ID, "tenant has an endpoint '" + id + "' already");
            }
            if (known.nextSink() > 65_535) {
                throw new EndpointRegistryException(Reason.NO_SINK_LEFT, "every sink number has been allocated");
            }
            RegisteredEndpoint endpoint = new RegisteredEndpoint(tenant, id, known.nextSink(), spec.url(),
                    spec.description(), spec.eventTypes(), spec.rateLimit(), spec.maxInflight(), spec.headers(),
                    spec.metadata(), List.of(new EndpointSecret(RegistryRules.generatedSecret(), 0)), true);
            book.put(endpoint);
            record(AuditAction.ENDPOINT_REGISTER, endpoint, Map.of());
            return view(endpoint);
        }
    }

    @Override
    public RegisteredEndpoint update(String tenant, String id, EndpointSpec spec) {
        RegistryRules.tenant(tenant);
        if (spec.id().isPresent() && !spec.id().get().equals(id)) {
            throw new EndpointRegistryException(Reason.INVALID_ID, "an update cannot change an endpoint's id");
        }
        RegistryRules.spec(spec, addressCheck);
        synchronized (book) {
            RegisteredEndpoint before = existing(tenant, id);
            RegisteredEndpoint after = new RegisteredEndpoint(tenant, id, before.sink(), spec.url(),
                    spec.description(), spec.eventTypes(), spec.rateLimit(), spec.maxInflight(), spec.headers(),
                    spec.metadata(), live(before.secrets(), clock.millis()), true);
            book.put(after);
            record(AuditAction.ENDPOINT_UPDATE, after, Map.of());
            return view(after);
        }
    }

    @Override
    public RegisteredEndpoint rotate(String tenant, String id, Duration overlap) {
        RegistryRules.tenant(tenant);
        if (overlap.isNegative()) {
            throw new IllegalArgumentException("overlap must not be negative: " + overlap);
        }
        synchronized (book) {
            RegisteredEndpoint before = existing(tenant, id);
            long now = clock.millis();
            long end = now + overlap.toMillis();
            List<EndpointSecret> secrets = new ArrayList<>();
            for (EndpointSecret old : live(before.secrets(), now)) {
                long expires = old.expiresAt() == 0 ? end : Math.min(old.expiresAt(), end);
                if (expires > now) {
                    secrets.add(new EndpointSecret(old.secret(), expires));
                }
            }
            secrets.add(new EndpointSecret(RegistryRules.generatedSecret(), 0));
            RegisteredEndpoint after = new RegisteredEndpoint(tenant, id, before.sink(), before.url(),
                    before.description(), before.eventTypes(), before.rateLimit(), before.maxInflight(),
                    before.headers(), before.metadata(), secrets, true);
            book.put(after);
            record(AuditAction.ENDPOINT_ROTATE, after, Map.of("overlap_ms", overlap.toMillis()));
            return view(after);
        }
    }

    @Override
    public void remove(String tenant, String id) {
        RegistryRules.tenant(tenant);
        synchronized (book) {
            RegisteredEndpoint before = existing(tenant, id);
            book.remove(tenant, before.sink());
            record(AuditAction.ENDPOINT_REMOVE, before, Map.of());
        }
    }

    @Override
    public Optional<RegisteredEndpoint> endpoint(String tenant, String id) {
        Objects.requireNonNull(id, "id");
        return valid(tenant) ? book.tenant(tenant).byId(id).map(this::view) : Optional.empty();
    }

    @Override
    public Optional<RegisteredEndpoint> endpoint(String tenant, int sink) {
        return valid(tenant) ? Optional.ofNullable(book.tenant(tenant).endpoints().get(sink)).map(this::view)
                : Optional.empty();
    }

    @Override
    public List<RegisteredEndpoint> endpoints(String tenant) {
        return valid(tenant) ? book.tenant(tenant).endpoints().values().stream().map(this::view).toList() : List.of();
    }

    private static boolean valid(String tenant) {
        return RegistryRules.tenantProblem(Objects.requireNonNull(tenant, "tenant")).isEmpty();
    }

    private RegisteredEndpoint existing(String tenant, String id) {
        Objects.requireNonNull(id, "id");
        RegistryBook.Tenant known = book.tenant(tenant);
        if (!known.known()) {
            throw new EndpointRegistryException(Reason.UNKNOWN_TENANT, "the tenant has no endpoint registered");
        }
        return known.byId(id).orElseThrow(() -> new EndpointRegistryException(Reason.UNKNOWN_ENDPOINT,
                "the tenant has no endpoint '" + id + "'"));
    }

    /** The endpoint as callers see it: secrets live at the queue clock's now, enabled from the stored state. */
    private RegisteredEndpoint view(RegisteredEndpoint stored) {
        long ord = ordinals.applyAsLong(stored.tenant());
        boolean enabled = ord == 0 || !states.get(ord, stored.sink()).disabled();
        return new RegisteredEndpoint(stored.tenant(), stored.id(), stored.sink(), stored.url(), stored.description(),
                stored.eventTypes(), stored.rateLimit(), stored.maxInflight(), stored.headers(), stored.metadata(),
                live(stored.secrets(), clock.millis()), enabled);
    }

    private static List<EndpointSecret> live(List<EndpointSecret> secrets, long now) {
        return secrets.stream().filter(s -> s.signsAt(now)).toList();
    }

    private void record(AuditAction action, RegisteredEndpoint endpoint, Map<String, Long> more) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("sink", (long) endpoint.sink());
        counts.putAll(more);
        audit.append(action, endpoint.tenant(), counts, actor);
    }
}
