package io.ankusa.testkit.property;

import java.util.Objects;

/** One step of an action sequence: a label for failure reports and what it does to the subject. */
public interface Action<S> {

    /** A short description shown in failure reports. */
    String describe();

    /** Applies the step to the subject (and its model). */
    void apply(S subject) throws Exception;

    /** An action from a label and a body. */
    static <S> Action<S> of(String label, Body<S> body) {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(body, "body");
        return new Action<>() {
            @Override
            public String describe() {
                return label;
            }

            @Override
            public void apply(S subject) throws Exception {
                body.apply(subject);
            }

            @Override
            public String toString() {
                return label;
            }
        };
    }

    /** The body of an action. */
    @FunctionalInterface
    interface Body<S> {
        /** Runs against the subject. */
        void apply(S subject) throws Exception;
    }
}
