package io.ankusa.queue.engine;

import io.ankusa.api.RegisteredEndpoint;
import io.ankusa.queue.deliveries.RegistryBook;
import io.ankusa.queue.intake.TenantOrdinals;
import io.ankusa.queue.ledger.EndpointLimits;
import java.util.Optional;

/**
 * The queue's {@link EndpointLimits}: the tenant id of the ordinal (one store read), then the
 * endpoint under the sink in the {@link RegistryBook}'s snapshot. The caller caches the answer
 * per generation; this reads afresh every time. A store where no endpoint was ever registered
 * answers {@link #any()} false, so the dispatcher reads no tenant id and keeps no answer there.
 */
final class RegisteredLimits implements EndpointLimits {

    private final RegistryBook book;
    private final TenantOrdinals ordinals;

    RegisteredLimits(RegistryBook book, TenantOrdinals ordinals) {
        this.book = book;
        this.ordinals = ordinals;
    }

    @Override
    public long generation() {
        return book.generation();
    }

    @Override
    public boolean any() {
        return book.anyRegistered();
    }

    @Override
    public int maxInflight(long ord, int sink) {
        Optional<String> tenant = ordinals.name(ord).filter(n -> !n.isEmpty());
        if (tenant.isEmpty()) {
            return NONE;
        }
        RegisteredEndpoint endpoint = book.tenant(tenant.get()).endpoints().get(sink);
        return endpoint == null ? NONE : endpoint.maxInflight();
    }
}
