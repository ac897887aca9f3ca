package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.sluice.api.v1beta2.ClusterProfileReference;
import io.fabric8.generator.annotation.Required;

/** Spec of a v1beta1 MultiKueueCluster: a kubeconfig (required) or a ClusterProfile. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MultiKueueClusterSpec {

    @JsonPropertyDescription("The worker cluster's kubeconfig.")
    @Required
    private KubeConfig kubeConfig;

    @JsonPropertyDescription("The worker cluster's ClusterProfile.")
    private ClusterProfileReference clusterProfileRef;

    public KubeConfig getKubeConfig() {
        return kubeConfig;
    }

    public void setKubeConfig(KubeConfig kubeConfig) {
        this.kubeConfig = kubeConfig;
    }

    public ClusterProfileReference getClusterProfileRef() {
        return clusterProfileRef;
    }

    public void setClusterProfileRef(ClusterProfileReference clusterProfileRef) {
        this.clusterProfileRef = clusterProfileRef;
    }
}
