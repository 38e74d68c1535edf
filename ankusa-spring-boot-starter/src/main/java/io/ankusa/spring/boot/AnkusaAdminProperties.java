package io.ankusa.spring.boot;

import java.util.Objects;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The admin API's mount, {@code ankusa.admin.*} (used when {@code ankusa-admin} is present). */
@ConfigurationProperties(AnkusaAdminProperties.PREFIX)
public class AnkusaAdminProperties {

    /** The prefix of these settings. */
    static final String PREFIX = "ankusa.admin";

    /**
     * Whether the admin API is mounted (when ankusa-admin is on the class path, the application is a
     * servlet web application and it has an io.ankusa.admin.AccessPolicy bean).
     */
    private boolean enabled = true;
    /**
     * The path the admin API is mounted at: its routes answer below it (/ankusa/v1/stats). Starts
     * with a slash, does not end with one, and holds no wildcard.
     */
    private String path = "/ankusa";

    /** {@return whether the admin API is mounted} */
    public boolean isEnabled() {
        return enabled;
    }

    /** @param enabled whether the admin API is mounted */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@return the path the admin API is mounted at} */
    public String getPath() {
        return path;
    }

    /**
     * @param path the path the admin API is mounted at: starts with {@code /}, does not end with one,
     *             holds no {@code *}
     * @throws IllegalArgumentException when the path is not such a path
     */
    public void setPath(String path) {
        Objects.requireNonNull(path, "path");
        if (!path.startsWith("/") || path.endsWith("/") || path.indexOf('*') >= 0) {
            throw new IllegalArgumentException(PREFIX + ".path must start with '/', not end with '/' and hold no '*'"
                    + " (the API is mapped to <path>/*), such as /ankusa; was '" + path + "'");
        }
        this.path = path;
    }

    /** {@return the servlet mapping of the path: the path and everything below it} */
    String mapping() {
        return path + "/*";
    }
}
