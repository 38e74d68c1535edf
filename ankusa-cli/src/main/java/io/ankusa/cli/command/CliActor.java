package io.ankusa.cli.command;

import io.ankusa.api.AuditEntry;

/**
 * The actor the CLI's changes to a store are audited with: {@code cli:<os user>} ({@code user.name}),
 * or {@code cli} when the OS names no user the audit trail can hold. Over {@code --url} the admin API
 * records the token's principal instead.
 */
final class CliActor {

    private CliActor() {
    }

    static String name() {
        String actor = "cli:" + System.getProperty("user.name", "");
        try {
            return AuditEntry.requireActor(actor.equals("cli:") ? "cli" : actor);
        } catch (IllegalArgumentException e) {
            return "cli";
        }
    }
}
