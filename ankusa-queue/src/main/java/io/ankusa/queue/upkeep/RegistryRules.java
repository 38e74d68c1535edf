package io.ankusa.queue.upkeep;

import io.ankusa.api.EndpointRegistryException;
import io.ankusa.api.EndpointRegistryException.Reason;
import io.ankusa.api.EndpointSpec;
import io.ankusa.keys.TenantIds;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/** What the endpoint registry accepts, and the ids and secrets it generates. */
final class RegistryRules {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");
    private static final Pattern EVENT_TYPE = Pattern.compile("[A-Za-z0-9_:-]+(\\.[A-Za-z0-9_:-]+)*(\\.\\*)?");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final int EVENT_TYPES_MAX = 256;
    private static final int PAIRS_MAX = 64;
    private static final int TEXT_MAX_BYTES = 1024;
    private static final int URL_MAX = 2048;
    private static final SecureRandom RANDOM = new SecureRandom();

    private RegistryRules() {
    }

    static Optional<String> tenantProblem(String tenant) {
        return TenantIds.problem(tenant);
    }

    static void tenant(String tenant) {
        tenantProblem(tenant).ifPresent(p -> {
            throw new EndpointRegistryException(Reason.INVALID_TENANT, p);
        });
    }

    static void spec(EndpointSpec spec, Function<URI, Optional<String>> addressCheck) {
        spec.id().ifPresent(id -> {
            if (!ID.matcher(id).matches()) {
                throw new EndpointRegistryException(Reason.INVALID_ID, "an endpoint id is 1..128 of [A-Za-z0-9_.:-]");
            }
        });
        url(spec.url());
        addressCheck.apply(spec.url()).ifPresent(reason -> {
            throw new EndpointRegistryException(Reason.ADDRESS_REFUSED, reason);
        });
        if (spec.eventTypes().size() > EVENT_TYPES_MAX) {
            throw new EndpointRegistryException(Reason.INVALID_EVENT_TYPE, "more than " + EVENT_TYPES_MAX);
        }
        for (String type : spec.eventTypes()) {
            if (type.length() > 255 || !EVENT_TYPE.matcher(type).matches()) {
                throw new EndpointRegistryException(Reason.INVALID_EVENT_TYPE,
                        "an event type is a dotted name of [A-Za-z0-9_:-], optionally ending .*: '" + type + "'");
            }
        }
        if (spec.rateLimit() < 0 || spec.maxInflight() < 0) {
            throw new EndpointRegistryException(Reason.INVALID_SETTING, "limits are 0 (none) or more");
        }
        if (bytes(spec.description()) > TEXT_MAX_BYTES) {
            throw new EndpointRegistryException(Reason.INVALID_SETTING,
                    "description over " + TEXT_MAX_BYTES + " bytes");
        }
        pairs("header", spec.headers(), true);
        pairs("metadata", spec.metadata(), false);
    }

    private static void url(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!url.isAbsolute() || !(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null
                || url.getHost().isEmpty() || url.getRawUserInfo() != null || url.getRawFragment() != null
                || url.toString().length() > URL_MAX) {
            throw new EndpointRegistryException(Reason.INVALID_URL,
                    "an absolute http or https URL with a host, no user info or fragment, at most " + URL_MAX
                            + " characters");
        }
    }

    private static void pairs(String what, Map<String, String> pairs, boolean header) {
        if (pairs.size() > PAIRS_MAX) {
            throw new EndpointRegistryException(Reason.INVALID_SETTING, "more than " + PAIRS_MAX + " " + what + "s");
        }
        for (Map.Entry<String, String> e : pairs.entrySet()) {
            boolean nameOk = header ? HEADER_NAME.matcher(e.getKey()).matches()
                    : !e.getKey().isEmpty() && bytes(e.getKey()) <= 128;
            boolean valueOk = bytes(e.getValue()) <= TEXT_MAX_BYTES
                    && (!header || e.getValue().chars().noneMatch(c -> c < 0x20 && c != '\t' || c == 0x7F));
            if (!nameOk || !valueOk) {
                throw new EndpointRegistryException(Reason.INVALID_SETTING,
                        "invalid " + what + " '" + e.getKey() + "'");
            }
        }
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    /** {@code ep_} and 26 lowercase base32 characters (130 random bits). */
    static String generatedId() {
        byte[] random = new byte[17];
        RANDOM.nextBytes(random);
        StringBuilder id = new StringBuilder("ep_");
        String alphabet = "abcdefghijklmnopqrstuvwxyz234567";
        for (int i = 0; i < 26; i++) {
            int bit = i * 5;
            int value = ((random[bit / 8] & 0xFF) << 8 | (bit / 8 + 1 < random.length ? random[bit / 8 + 1] & 0xFF : 0))
                    >> (11 - bit % 8) & 0x1F;
            id.append(alphabet.charAt(value));
        }
        return id.toString();
    }

    /** A new Standard Webhooks secret: {@code whsec_} and 32 random bytes in base64. */
    static String generatedSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }
}
