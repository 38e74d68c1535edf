package io.ankusa.testkit.property;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Model-based action sequences on a small seeded harness (we do not use jqwik).
 *
 * <p>Each try draws a sequence of up to {@code maxActions} actions from the weighted generators,
 * using a per-try seed derived from the master seed, applies them one by one to a fresh subject
 * and runs the invariant after every step. Actions are drawn before any runs, so a failing
 * sequence can be replayed exactly. On a failure the sequence is shrunk by dropping actions —
 * first large chunks, then single actions — for as long as the failure persists, each candidate
 * replayed on a fresh subject; the report shows the master seed (replay with
 * {@code -Dankusa.seed=…}), the try, and the minimal sequence.
 *
 * @param <S> the subject: the system under test together with its model
 */
public final class ActionSequenceCheck<S> {

    private final String name;
    private PropertyConfig config = PropertyConfig.of(20, 100);
    private Supplier<? extends S> subject;
    private final List<Gen.Weighted<Function<RandomGenerator, Action<S>>>> generators = new ArrayList<>();
    private ThrowingConsumer<? super S> invariant = s -> { };

    private ActionSequenceCheck(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * A new check called {@code name}.
     *
     * @param <S>  the type of the subject the actions run against
     * @param name the check's name, shown in failure reports
     * @return a check with no subject, action or invariant yet
     */
    public static <S> ActionSequenceCheck<S> named(String name) {
        return new ActionSequenceCheck<>(name);
    }

    /**
     * Seed and counts.
     *
     * @param config the master seed, the tries and the most actions per try
     * @return this check
     */
    public ActionSequenceCheck<S> config(PropertyConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        return this;
    }

    /**
     * Makes a fresh subject for every try and every shrink replay; closed after use if AutoCloseable.
     *
     * @param subject makes a fresh subject
     * @return this check
     */
    public ActionSequenceCheck<S> subject(Supplier<? extends S> subject) {
        this.subject = Objects.requireNonNull(subject, "subject");
        return this;
    }

    /**
     * Adds an action generator with a relative weight.
     *
     * @param weight    how often this action is drawn relative to the others; positive
     * @param generator draws one action of this kind
     * @return this check
     */
    public ActionSequenceCheck<S> action(int weight, Function<RandomGenerator, Action<S>> generator) {
        generators.add(new Gen.Weighted<>(weight, Objects.requireNonNull(generator, "generator")));
        return this;
    }

    /**
     * The check run after every step.
     *
     * @param invariant what must hold of the subject after every step
     * @return this check
     */
    public ActionSequenceCheck<S> invariant(ThrowingConsumer<? super S> invariant) {
        this.invariant = Objects.requireNonNull(invariant, "invariant");
        return this;
    }

    /** Runs every try; throws an {@link AssertionError} describing the shrunk failure. */
    public void run() {
        if (subject == null || generators.isEmpty()) {
            throw new IllegalStateException("a subject and at least one action are required");
        }
        SplittableRandom master = new SplittableRandom(config.seed());
        for (int t = 0; t < config.tries(); t++) {
            long trySeed = master.nextLong();
            List<Action<S>> actions = draw(new SplittableRandom(trySeed));
            Failure failure = replay(actions);
            if (failure != null) {
                List<Action<S>> minimal = shrink(actions);
                Failure last = replay(minimal);
                throw report(t, actions.size(), minimal, last != null ? last : failure);
            }
        }
    }

    private List<Action<S>> draw(RandomGenerator random) {
        int total = generators.stream().mapToInt(Gen.Weighted::weight).sum();
        int count = 1 + random.nextInt(config.maxActions());
        List<Action<S>> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int pick = random.nextInt(total);
            for (Gen.Weighted<Function<RandomGenerator, Action<S>>> g : generators) {
                pick -= g.weight();
                if (pick < 0) {
                    out.add(g.value().apply(random));
                    break;
                }
            }
        }
        return out;
    }

    private List<Action<S>> shrink(List<Action<S>> failing) {
        List<Action<S>> current = new ArrayList<>(failing);
        int chunk = Math.max(1, current.size() / 2);
        while (chunk >= 1) {
            boolean removed = false;
            for (int from = 0; from < current.size(); ) {
                List<Action<S>> candidate = new ArrayList<>(current.subList(0, from));
                candidate.addAll(current.subList(Math.min(current.size(), from + chunk), current.size()));
                if (!candidate.isEmpty() && replay(candidate) != null) {
                    current = candidate;
                    removed = true;
                } else {
                    from += chunk;
                }
            }
            if (!removed) {
                chunk /= 2;
            }
        }
        return current;
    }

    private Failure replay(List<Action<S>> actions) {
        S s = subject.get();
        int step = -1;
        Failure failure = null;
        try {
            invariant.accept(s);
            for (step = 0; step < actions.size(); step++) {
                actions.get(step).apply(s);
                invariant.accept(s);
            }
        } catch (Throwable e) {
            failure = new Failure(step, e);
        }
        if (s instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // A subject that fails to close fails the run; after another failure it must not hide
                // that one, so it rides along as suppressed.
                if (failure == null) {
                    failure = new Failure(step, e);
                } else {
                    failure.cause().addSuppressed(e);
                }
            }
        }
        return failure;
    }

    private AssertionError report(int tryIndex, int drawn, List<Action<S>> minimal, Failure failure) {
        StringBuilder text = new StringBuilder()
                .append("property '").append(name).append("' failed on try ").append(tryIndex)
                .append(" of seed ").append(config.seed())
                .append(" (replay: -Dankusa.seed=").append(config.seed()).append(")\n")
                .append("shrunk from ").append(drawn).append(" to ").append(minimal.size()).append(" actions")
                .append(failure.step() < 0 ? ", failing before the first action"
                        : ", failing at step " + failure.step())
                .append(":\n");
        for (int i = 0; i < minimal.size(); i++) {
            text.append("  ").append(i).append(": ").append(minimal.get(i).describe()).append('\n');
        }
        return new AssertionError(text.toString(), failure.cause());
    }

    private record Failure(int step, Throwable cause) {
    }
}
