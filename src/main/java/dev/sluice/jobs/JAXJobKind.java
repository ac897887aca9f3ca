package dev.sluice.jobs;

import java.util.List;

/**
 * {@code kubeflow.org/v1} JAXJob (training-operator): pod sets from {@code spec.jaxReplicaSpecs} (see {@link KubeflowJobKind}),
 * in Kueue's order (its {@code kubeflow/jobs/jaxjob} integration).
 */
public final class JAXJobKind extends KubeflowJobKind {
    @Override
    public String version() {
        return "v1";
    }

    @Override
    public String kind() {
        return "JAXJob";
    }

    @Override
    public String plural() {
        return "jaxjobs";
    }

    @Override
    protected String replicaSpecsField() {
        return "jaxReplicaSpecs";
    }

    @Override
    protected List<String> typeOrder() {
        return List.of("Worker");
    }
}
