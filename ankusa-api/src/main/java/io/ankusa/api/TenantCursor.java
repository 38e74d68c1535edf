package io.ankusa.api;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * A position in the tenant listing, which is ordered by tenant id (the unsigned byte order of the
 * ids' UTF-8, which is code point order). A page read {@link TenantQuery#after after} a cursor starts
 * with the first tenant whose id sorts after {@link #tenantId()}; the tenant named need not exist any
 * more (an erased tenant's cursor still continues the walk).
 *
 * <p>{@link #token()} and {@link #parse} turn a cursor into an opaque, URL-safe string and back, for
 * command lines and HTTP query parameters.
 *
 * @param tenantId the id of the last tenant of the page before
 */
public record TenantCursor(String tenantId) {

    /**
     * Checks the id: what a tenant id may be (1..{@value Hook#TENANT_MAX_BYTES} UTF-8 bytes, no NUL,
     * valid UTF-16).
     *
     * @param tenantId the id of the last tenant of the page before
     */
    public TenantCursor {
        TenantQuery.checkIdText("tenant id", tenantId, 1);
    }

    /** {@return the cursor as an opaque token: the id's UTF-8 in unpadded URL-safe Base64} */
    public String token() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(tenantId.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The cursor written by {@link #token()}.
     *
     * @param token a string written by {@link #token()}
     * @return the cursor it stands for
     * @throws IllegalArgumentException when {@code token} is not such a string
     */
    public static TenantCursor parse(String token) {
        Objects.requireNonNull(token, "token");
        try {
            byte[] bytes = Base64.getUrlDecoder().decode(token);
            String id = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
            return new TenantCursor(id);
        } catch (CharacterCodingException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a tenant cursor: '" + token + "'", e);
        }
    }
}
