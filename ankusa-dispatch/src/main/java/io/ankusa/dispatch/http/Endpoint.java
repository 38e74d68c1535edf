package io.ankusa.dispatch.http;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Where one tenant's hooks for one sink go: what an {@link EndpointResolver} returns.
 *
 * <p>Every active secret signs each request, so a receiver rotating its secret accepts requests
 * during the changeover whichever secret it holds: list the new secret next to the old one, then
 * drop the old one once the receiver has switched. Every signing key signs too, each adding an
 * asymmetric {@code v1a,} signature after the {@code v1,} ones, which its receivers verify with the
 * {@linkplain WebhookSigningKey#publicKey() public key} alone; keys rotate the same way. An endpoint
 * has at least one secret or signing key, and may have both (while receivers move from one to the
 * other). The extra headers are sent on every request to
 * the endpoint (after the hook's own, before the sink's {@code webhook-*} headers and
 * {@code User-Agent}, which they cannot replace). A disabled endpoint receives nothing: its
 * deliveries end {@linkplain io.ankusa.dispatch.sink.SinkOutcome.EndpointDisabled endpoint disabled}.
 * With {@code traceparent} on, each request carries the W3C {@code traceparent} (and a non-empty
 * {@code tracestate}) of the attempt's span, else of the trace context stored with the hook; it is
 * off unless asked for, because it tells the receiver the ids of the sender's traces.
 * With a {@linkplain #withClientCertificate(SSLContext) client certificate} (an {@code https} URL
 * only) the endpoint's requests go through a connection pool of their own, whose TLS handshakes use
 * that {@link SSLContext} for both sides: its key managers present the client certificate and its
 * trust managers decide which servers are trusted; see {@link WebhookClient}.
 * {@link #toString()} never shows the secrets, signing keys, header values or key material.
 *
 * @param url     an absolute {@code http} or {@code https} URL
 * @param secrets the active signing secrets; each adds a {@code v1,} signature
 * @param signingKeys the active signing keys; each adds a {@code v1a,} signature
 * @param headers extra headers, name to value, sent in this order; unmodifiable
 * @param enabled whether deliveries are sent
 * @param traceparent whether requests carry the W3C {@code traceparent} and {@code tracestate} headers
 * @param clientCertificate the TLS context presenting the endpoint's client certificate and trusting its
 *                          server, or {@code null} for the shared pool; compared by identity
 */
public record Endpoint(URI url, List<WebhookSecret> secrets, List<WebhookSigningKey> signingKeys,
        Map<String, String> headers, boolean enabled, boolean traceparent, SSLContext clientCertificate) {

    /**
     * Validates and copies.
     *
     * @param url an absolute {@code http} or {@code https} URL
     * @param secrets the active signing secrets; each adds a {@code v1,} signature
     * @param signingKeys the active signing keys; each adds a {@code v1a,} signature
     * @param headers extra headers, name to value, sent in this order; unmodifiable
     * @param enabled whether deliveries are sent
     * @param traceparent whether requests carry the W3C {@code traceparent} and {@code tracestate} headers
     * @param clientCertificate the TLS context presenting the endpoint's client certificate and trusting its
     *                          server, or {@code null} for the shared pool; only with an {@code https} URL
     */
    public Endpoint {
        Objects.requireNonNull(url, "url");
        String scheme = url.getScheme();
        if (!url.isAbsolute() || url.getRawAuthority() == null
                || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
            throw new IllegalArgumentException("endpoint must be an absolute http or https URI with a host: " + url);
        }
        if (clientCertificate != null && !"https".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("a client certificate needs an https endpoint: " + url);
        }
        secrets = List.copyOf(secrets);
        signingKeys = List.copyOf(signingKeys);
        if (secrets.isEmpty() && signingKeys.isEmpty()) {
            throw new IllegalArgumentException("an endpoint needs at least one secret or signing key");
        }
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        headers.forEach((name, value) -> {
            Objects.requireNonNull(name, "header name");
            Objects.requireNonNull(value, "header value");
        });
    }

    /**
     * An endpoint without a client certificate.
     *
     * @param url an absolute {@code http} or {@code https} URL
     * @param secrets the active signing secrets; each adds a {@code v1,} signature
     * @param signingKeys the active signing keys; each adds a {@code v1a,} signature
     * @param headers extra headers, name to value, sent in this order; unmodifiable
     * @param enabled whether deliveries are sent
     * @param traceparent whether requests carry the W3C {@code traceparent} and {@code tracestate} headers
     */
    public Endpoint(URI url, List<WebhookSecret> secrets, List<WebhookSigningKey> signingKeys,
            Map<String, String> headers, boolean enabled, boolean traceparent) {
        this(url, secrets, signingKeys, headers, enabled, traceparent, null);
    }

    /**
     * An endpoint signed with secrets only.
     *
     * @param url an absolute {@code http} or {@code https} URL
     * @param secrets the active signing secrets, at least one; each adds a {@code v1,} signature
     * @param headers extra headers, name to value, sent in this order; unmodifiable
     * @param enabled whether deliveries are sent
     * @param traceparent whether requests carry the W3C {@code traceparent} and {@code tracestate} headers
     */
    public Endpoint(URI url, List<WebhookSecret> secrets, Map<String, String> headers, boolean enabled,
            boolean traceparent) {
        this(url, secrets, List.of(), headers, enabled, traceparent);
    }

    /**
     * An endpoint signed with secrets only, without the {@code traceparent} header.
     *
     * @param url an absolute {@code http} or {@code https} URL
     * @param secrets the active signing secrets, at least one; each adds a {@code v1,} signature
     * @param headers extra headers, name to value, sent in this order; unmodifiable
     * @param enabled whether deliveries are sent
     */
    public Endpoint(URI url, List<WebhookSecret> secrets, Map<String, String> headers, boolean enabled) {
        this(url, secrets, List.of(), headers, enabled, false);
    }

    /**
     * An enabled endpoint at {@code url}, signed with {@code secret} (and {@code more}, during a
     * rotation), with no extra headers. The secret is a parameter of its own so that an endpoint
     * without one does not compile.
     *
     * @param url    where deliveries are posted: an absolute {@code http} or {@code https} URI
     * @param secret the secret each delivery is signed with
     * @param more   further secrets signing alongside it (old and new during a rotation)
     * @return the endpoint
     */
    public static Endpoint of(URI url, WebhookSecret secret, WebhookSecret... more) {
        List<WebhookSecret> secrets = new ArrayList<>(1 + more.length);
        secrets.add(Objects.requireNonNull(secret, "secret"));
        secrets.addAll(List.of(more));
        return new Endpoint(url, secrets, Map.of(), true);
    }

    /**
     * An enabled endpoint at {@code url}, signed {@code v1a} with {@code key} (and {@code more}, during
     * a rotation), with no extra headers and no symmetric secret.
     *
     * @param url  where deliveries are posted: an absolute {@code http} or {@code https} URI
     * @param key  the signing key each delivery is signed with
     * @param more further signing keys signing alongside it (old and new during a rotation)
     * @return the endpoint
     */
    public static Endpoint of(URI url, WebhookSigningKey key, WebhookSigningKey... more) {
        List<WebhookSigningKey> keys = new ArrayList<>(1 + more.length);
        keys.add(Objects.requireNonNull(key, "key"));
        keys.addAll(List.of(more));
        return new Endpoint(url, List.of(), keys, Map.of(), true, false);
    }

    /**
     * This endpoint with {@code extra} as its extra headers.
     *
     * @param extra header names and values sent with every delivery to this endpoint
     * @return a copy of this endpoint with those headers
     */
    public Endpoint withHeaders(Map<String, String> extra) {
        return new Endpoint(url, secrets, signingKeys, extra, enabled, traceparent, clientCertificate);
    }

    /**
     * This endpoint with these secrets (rotation: old and new together, then the new alone).
     *
     * @param active the secrets to sign with from now on; at least one unless the endpoint has signing keys
     * @return a copy of this endpoint with those secrets
     */
    public Endpoint withSecrets(List<WebhookSecret> active) {
        return new Endpoint(url, active, signingKeys, headers, enabled, traceparent, clientCertificate);
    }

    /**
     * This endpoint with these {@code v1a} signing keys, beside its secrets (rotation: old and new
     * together, then the new alone; an empty list to sign with the secrets only).
     *
     * @param active the signing keys to sign with from now on; at least one unless the endpoint has secrets
     * @return a copy of this endpoint with those signing keys
     */
    public Endpoint withSigningKeys(List<WebhookSigningKey> active) {
        return new Endpoint(url, secrets, active, headers, enabled, traceparent, clientCertificate);
    }

    /**
     * This endpoint, enabled or disabled.
     *
     * @param on {@code false} to settle every delivery as endpoint-disabled without sending it
     * @return a copy of this endpoint, enabled or not
     */
    public Endpoint withEnabled(boolean on) {
        return new Endpoint(url, secrets, signingKeys, headers, on, traceparent, clientCertificate);
    }

    /**
     * This endpoint with the W3C {@code traceparent} header on or off (off by default: the header
     * tells the receiver the ids of the sender's traces).
     *
     * @param on {@code true} to send {@code traceparent}, and {@code tracestate} when it is not empty
     * @return a copy of this endpoint, sending the trace headers or not
     */
    public Endpoint withTraceparent(boolean on) {
        return new Endpoint(url, secrets, signingKeys, headers, enabled, on, clientCertificate);
    }

    /**
     * This endpoint presenting a client certificate (mutual TLS): its requests go through a
     * connection pool of the {@link WebhookClient} kept for {@code context} alone, so a connection
     * opened with this certificate never carries another endpoint's request, nor one without a
     * certificate. The context's key managers choose the certificate presented and its trust
     * managers decide which servers are trusted (the JVM's default trust does not apply to these
     * requests). Build one context per certificate and reuse it: each distinct context costs one pool.
     *
     * @param context the TLS context with the client's key (and the trust for the server), or
     *                {@code null} to send through the shared pool without a certificate
     * @return a copy of this endpoint with that client certificate
     * @throws IllegalArgumentException when the endpoint's URL is not {@code https}
     */
    public Endpoint withClientCertificate(SSLContext context) {
        return new Endpoint(url, secrets, signingKeys, headers, enabled, traceparent, context);
    }

    /**
     * The URL, the number of secrets and signing keys, the header names, whether enabled and whether
     * it has a client certificate; never a secret, a key, a header value or key material.
     */
    @Override
    public String toString() {
        return "Endpoint[" + url + ", " + secrets.size() + " secret(s)"
                + (signingKeys.isEmpty() ? "" : ", " + signingKeys.size() + " signing key(s)")
                + ", headers=" + headers.keySet()
                + (enabled ? "" : ", disabled") + (traceparent ? ", traceparent" : "")
                + (clientCertificate == null ? "" : ", client certificate") + "]";
    }
}
