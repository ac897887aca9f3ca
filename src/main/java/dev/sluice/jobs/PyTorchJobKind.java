package dev.sluice.jobs;

import java.util.List;

/** {@code kubeflow.org/v1} PyTorchJob: pod sets from {@code spec.pytorchReplicaSpecs} (see {@link KubeflowJobKind}). */
public final class PyTorchJobKind extends KubeflowJobKind {
    @Override
    public String version() {
        return "v1";
    }

    @Override
    public String kind() {
        return "PyTorchJob";
    }

    @Override
    public String plural() {
        return "pytorchjobs";
    }

    @Override
    protected String replicaSpecsField() {
        return "pytorchReplicaSpecs";
    }

    @Override
    protected List<String> typeOrder() {
        return List.of("Master", "Worker");
    }
}
