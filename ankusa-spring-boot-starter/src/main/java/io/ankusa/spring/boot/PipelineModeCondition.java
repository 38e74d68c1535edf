package io.ankusa.spring.boot;

import io.ankusa.spring.boot.AnkusaPipelineProperties.Mode;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches one {@link Mode} of {@code ankusa.pipeline.mode} (the deprecated
 * {@code ankusa.pipeline.enabled=false} read as {@code ingest-only}), as
 * {@link AnkusaPipelineProperties#mode} reads it.
 */
abstract class PipelineModeCondition extends SpringBootCondition {

    private final Mode mode;

    PipelineModeCondition(Mode mode) {
        this.mode = mode;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Mode set = AnkusaPipelineProperties.mode(context.getEnvironment());
        String message = AnkusaPipelineProperties.PREFIX + ".mode is " + set;
        return set == mode ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
    }

    /** The node delivers: {@code ankusa.pipeline.mode=deliver}, the default. */
    static final class Deliver extends PipelineModeCondition {
        Deliver() {
            super(Mode.DELIVER);
        }
    }

    /** The node only stores hooks: {@code ankusa.pipeline.mode=ingest-only}. */
    static final class IngestOnly extends PipelineModeCondition {
        IngestOnly() {
            super(Mode.INGEST_ONLY);
        }
    }
}
