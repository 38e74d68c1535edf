package io.ankusa.dispatch.http;

import java.net.UnknownHostException;

/**
 * The {@link AddressGuard} refused a host or one of its addresses. An {@link UnknownHostException}
 * because that is what the HTTP client's resolver may throw; the message starts with
 * {@value AddressGuard#SSRF_REFUSED} and is the dead letter's reason.
 */
final class AddressRefusedException extends UnknownHostException {

    private static final long serialVersionUID = 1L;

    AddressRefusedException(String reason) {
        super(reason);
    }
}
