package dev.sluice.jobs;

import java.util.List;

/** {@code kubeflow.org/v1} TFJob: pod sets from {@code spec.tfReplicaSpecs} (see {@link KubeflowJobKind}). */
public final class TFJobKind extends KubeflowJobKind {
    @Override
    public String version() {
        return "v1";
    }

    @Override
    public String kind() {
        return "TFJob";
    }

    @Override
    public String plural() {
        return "tfjobs";
    }

    @Override
    protected String replicaSpecsField() {
        return "tfReplicaSpecs";
    }

    @Override
    protected List<String> typeOrder() {
        return List.of("Chief", "Master", "PS", "Worker", "Evaluator");
    }
}
