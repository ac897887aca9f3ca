package dev.sluice.jobs;

import java.util.List;

/** {@code kubeflow.org/v2beta1} MPIJob: pod sets from {@code spec.mpiReplicaSpecs} (see {@link KubeflowJobKind}). */
public final class MPIJobKind extends KubeflowJobKind {
    @Override
    public String version() {
        return "v2beta1";
    }

    @Override
    public String kind() {
        return "MPIJob";
    }

    @Override
    public String plural() {
        return "mpijobs";
    }

    @Override
    protected String replicaSpecsField() {
        return "mpiReplicaSpecs";
    }

    @Override
    protected List<String> typeOrder() {
        return List.of("Launcher", "Worker");
    }
}
