package dev.sluice.jobs;

import java.util.List;

/**
 * {@code kubeflow.org/v1} PaddleJob (training-operator): pod sets from {@code spec.paddleReplicaSpecs} (see {@link KubeflowJobKind}),
 * in Kueue's order (its {@code kubeflow/jobs/paddlejob} integration).
 */
public final class PaddleJobKind extends KubeflowJobKind {
    @Override
    public String version() {
        return "v1";
    }

    @Override
    public String kind() {
        return "PaddleJob";
    }

    @Override
    public String plural() {
        return "paddlejobs";
    }

    @Override
    protected String replicaSpecsField() {
        return "paddleReplicaSpecs";
    }

    @Override
    protected List<String> typeOrder() {
        return List.of("Master", "Worker");
    }
}
