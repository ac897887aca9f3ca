{{/* Object name prefix: the release name, with "sluice" appended unless it already contains it. */}}
{{- define "sluice.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "sluice.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "sluice.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "sluice.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "sluice.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sluice.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "sluice.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "sluice.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "sluice.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* The controller serves the webhooks itself unless a separate webhook Deployment does. */}}
{{- define "sluice.controllerMode" -}}
{{- if gt (int .Values.webhook.replicas) 0 }}controller{{ else }}all{{ end -}}
{{- end -}}

{{- define "sluice.webhookServiceName" -}}
{{- printf "%s-webhook" (include "sluice.fullname" .) -}}
{{- end -}}

{{- define "sluice.visibilityServiceName" -}}
{{- printf "%s-visibility" (include "sluice.fullname" .) -}}
{{- end -}}

{{- define "sluice.metricsServiceName" -}}
{{- printf "%s-metrics" (include "sluice.fullname" .) -}}
{{- end -}}

{{- define "sluice.tlsSecretName" -}}
{{- printf "%s-webhook-tls" (include "sluice.fullname" .) -}}
{{- end -}}

{{/* JVM options for JDK_JAVA_OPTIONS, from a jvm values block (gc, initialHeap, maxHeap, maxMetaspace,
footprintOptions, extraOptions). */}}
{{- define "sluice.jvmOptions" -}}
{{- $opts := list (printf "-XX:+Use%s" .gc) -}}
{{- if .initialHeap }}{{ $opts = append $opts (printf "-Xms%s" .initialHeap) }}{{ end -}}
{{- $opts = concat $opts (list (printf "-Xmx%s" .maxHeap) (printf "-XX:MaxMetaspaceSize=%s" .maxMetaspace) "-XX:+ExitOnOutOfMemoryError") -}}
{{- join " " (concat $opts (.footprintOptions | default list) (.extraOptions | default list)) -}}
{{- end -}}

{{/* Environment every Sluice pod gets: which kinds are on, who may release queued jobs. */}}
{{- define "sluice.commonEnv" -}}
- name: SLUICE_CONTROLLER_USERNAME
  value: {{ printf "system:serviceaccount:%s:%s" .Release.Namespace (include "sluice.serviceAccountName" .) | quote }}
{{- range $name, $on := .Values.integrations }}
- name: {{ printf "SLUICE_INTEGRATIONS_%s_ENABLED" (upper $name) }}
  value: {{ $on | quote }}
{{- end }}
{{- if not .Values.kubeQueueCompat }}
- name: SLUICE_KUBE_QUEUE_COMPAT
  value: "false"
{{- end }}
{{- end -}}

{{/* Ports, probes on the management port, TLS volume mount and security context shared by both Deployments.
Called with (list root servesVisibility): only controller pods serve the visibility API. The management port speaks
HTTPS only (the certificate of the tls volume); the kubelet's HTTPS probes check no certificate. */}}
{{- define "sluice.podCommon" -}}
{{- $visibility := index . 1 -}}
{{- with index . 0 -}}
ports:
  - name: https
    containerPort: 8443
    protocol: TCP
  - name: management
    containerPort: 9000
    protocol: TCP
  {{- if and $visibility .Values.visibility.enabled }}
  - name: visibility
    containerPort: {{ .Values.visibility.port }}
    protocol: TCP
  {{- end }}
startupProbe:
  httpGet: {path: /q/health/started, port: management, scheme: HTTPS}
  periodSeconds: 2
  failureThreshold: 60
livenessProbe:
  httpGet: {path: /q/health/live, port: management, scheme: HTTPS}
  periodSeconds: 10
  failureThreshold: 3
readinessProbe:
  httpGet: {path: /q/health/ready, port: management, scheme: HTTPS}
  periodSeconds: 5
  failureThreshold: 3
volumeMounts:
  - name: tls
    mountPath: /etc/sluice/tls
    readOnly: true
  - name: tmp
    mountPath: /tmp
securityContext:
  {{- toYaml .Values.securityContext | nindent 2 }}
{{- end -}}
{{- end -}}

{{- define "sluice.podVolumes" -}}
- name: tls
  secret:
    secretName: {{ include "sluice.tlsSecretName" . }}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end -}}
