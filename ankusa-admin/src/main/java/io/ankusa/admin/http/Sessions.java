package io.ankusa.admin.http;

import java.security.Principal;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dashboard's sign-in sessions: a random id (32 bytes, base64url) for a principal a bearer
 * token authenticated, held in memory for {@link #LIFETIME} and at most {@link #MAX_SESSIONS} at
 * once. The id is the HttpOnly cookie's value; the token itself never leaves the sign-in request.
 * Sessions end with the servlet.
 */
public final class Sessions {

    /** The cookie that carries a session's id. */
    public static final String COOKIE = "ankusa_session";

    /** How long a session lasts from sign-in. */
    public static final Duration LIFETIME = Duration.ofHours(8);

    static final int MAX_SESSIONS = 10_000;

    private static final SecureRandom RANDOM = new SecureRandom();

    private record Session(Principal principal, long expiresAt) {
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Clock clock;

    /** Sessions on the system clock. */
    public Sessions() {
        this(Clock.systemUTC());
    }

    Sessions(Clock clock) {
        this.clock = clock;
    }

    /**
     * A new session for {@code principal}.
     *
     * @param principal who signed in
     * @return the session's id, or empty when {@link #MAX_SESSIONS} live sessions are held
     */
    public Optional<String> open(Principal principal) {
        long now = clock.millis();
        sessions.values().removeIf(s -> s.expiresAt() <= now);
        if (sessions.size() >= MAX_SESSIONS) {
            return Optional.empty();
        }
        byte[] id = new byte[32];
        RANDOM.nextBytes(id);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        sessions.put(token, new Session(principal, now + LIFETIME.toMillis()));
        return Optional.of(token);
    }

    /**
     * The principal of session {@code id}, while it lasts.
     *
     * @param id the cookie's value
     * @return its principal, or empty for an unknown or expired id
     */
    public Optional<Principal> principal(String id) {
        Session session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        if (session.expiresAt() <= clock.millis()) {
            sessions.remove(id);
            return Optional.empty();
        }
        return Optional.of(session.principal());
    }

    /**
     * Ends session {@code id}.
     *
     * @param id the cookie's value
     */
    public void close(String id) {
        sessions.remove(id);
    }
}
