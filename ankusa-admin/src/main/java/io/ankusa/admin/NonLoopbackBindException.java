package io.ankusa.admin;

import io.ankusa.api.AnkusaException;

/**
 * An {@link AdminServer} was told to listen on an address other than loopback without
 * {@link AdminServer.Builder#allowNonLoopback(boolean) allowNonLoopback(true)}. The admin API can
 * purge and erase tenants: reaching it from the network is a decision the application makes in
 * so many words.
 */
public final class NonLoopbackBindException extends AnkusaException {

    private static final long serialVersionUID = 1L;

    /**
     * The refusal.
     *
     * @param host the address asked for
     */
    public NonLoopbackBindException(String host) {
        super("non_loopback_bind", "the admin server binds loopback only unless allowNonLoopback(true) is set: '"
                + host + "'");
    }
}
