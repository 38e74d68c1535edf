package io.ankusa.testkit.property;

import java.util.Objects;

/** One step of an action sequence: a label for failure reports and what it does to the subject. */
public interface Action<S> {

    /**
     * A short description shown in failure reports.
     *
     * @return what the step does, for a person reading the shrunk failing sequence
     */
    String describe();

    /**
     * Applies the step to the subject (and its model).
     *
     * @param subject the system under test (with its model, if the check keeps one)
     * @throws Exception when the step fails; any exception or assertion error fails the property
     */
    void apply(S subject) throws Exception;

    /**
     * An action from a label and a body.
     *
     * @param <S>   the subject's type
     * @param label what the step does, shown in failure reports
     * @param body  what it does to the subject
     * @return the action
     */
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
        /**
         * Runs against the subject.
         *
         * @param subject the system under test
         * @throws Exception when the step fails; any exception or assertion error fails the property
         */
        void apply(S subject) throws Exception;
    }
}
