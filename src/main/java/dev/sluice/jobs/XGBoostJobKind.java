package dev.sluice.jobs;

import java.util.List;

/**
 * {@code kubeflow.org/v1} XGBoostJob (training-operator): pod sets from {@code spec.xgbReplicaSpecs} (see {@link KubeflowJobKind}),
 * in Kueue's order (its {@code kubeflow/jobs/xgboostjob} integration).
 */
public final class XGBoostJobKind extends KubeflowJobKind {
    @Override
    public String version() {
        return "v1";
    }

    @Override
    public String kind() {
        return "XGBoostJob";
    }

    @Override
    public String plural() {
        return "xgboostjobs";
    }

    @Override
    protected String replicaSpecsField() {
        return "xgbReplicaSpecs";
    }

    @Override
    protected List<String> typeOrder() {
        return List.of("Master", "Worker");
    }
}
