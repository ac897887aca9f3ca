{{/*
Helm-generated TLS (webhook.tls.certManager=false), base64-encoded: {ca, crt, key} and the certificate's DNS names
(names, comma-separated). On upgrade the existing Secret is reused, so it keeps the certificate the webhook
configurations trust, as long as its annotation says it names every Service it serves (webhook, visibility, metrics);
a Secret from a chart that named fewer gets a new CA and certificate once. The result is cached per render so the
Secret and the caBundle agree.
*/}}
{{- define "sluice.selfSignedTls" -}}
{{- $cacheKey := "sluiceSelfSignedTls" -}}
{{- if not (hasKey .Values $cacheKey) -}}
{{- $cn := printf "%s.%s.svc" (include "sluice.webhookServiceName" .) .Release.Namespace -}}
{{- $vis := printf "%s.%s.svc" (include "sluice.visibilityServiceName" .) .Release.Namespace -}}
{{- $metrics := printf "%s.%s.svc" (include "sluice.metricsServiceName" .) .Release.Namespace -}}
{{- $names := list $cn (printf "%s.cluster.local" $cn) $vis (printf "%s.cluster.local" $vis) $metrics (printf "%s.cluster.local" $metrics) -}}
{{- $secret := dict -}}
{{- if .Release.IsUpgrade -}}
{{- $secret = lookup "v1" "Secret" .Release.Namespace (include "sluice.tlsSecretName" .) -}}
{{- end -}}
{{- $stored := dig "metadata" "annotations" "sluice.dev/dns-names" "" ($secret | default dict) -}}
{{- if and $secret (index ($secret.data | default dict) "ca.crt") (eq $stored (join "," $names)) -}}
{{- $_ := set .Values $cacheKey (dict "ca" (index $secret.data "ca.crt") "crt" (index $secret.data "tls.crt") "key" (index $secret.data "tls.key") "names" $stored) -}}
{{- else -}}
{{- $days := int .Values.webhook.tls.validityDays -}}
{{- $ca := genCA (printf "%s-ca" (include "sluice.fullname" .)) $days -}}
{{- $cert := genSignedCert $cn nil $names $days $ca -}}
{{- $_ := set .Values $cacheKey (dict "ca" ($ca.Cert | b64enc) "crt" ($cert.Cert | b64enc) "key" ($cert.Key | b64enc) "names" (join "," $names)) -}}
{{- end -}}
{{- end -}}
{{- toYaml (get .Values $cacheKey) -}}
{{- end -}}

{{/* metadata.annotations (cert-manager) or clientConfig.caBundle (Helm) of a webhook configuration. */}}
{{- define "sluice.caInjectionAnnotation" -}}
{{- if .Values.webhook.tls.certManager -}}
cert-manager.io/inject-ca-from: {{ printf "%s/%s" .Release.Namespace (include "sluice.webhookServiceName" .) }}
{{- end -}}
{{- end -}}

{{- define "sluice.clientConfig" -}}
{{- $root := index . 0 -}}
{{- $path := index . 1 -}}
service:
  name: {{ include "sluice.webhookServiceName" $root }}
  namespace: {{ $root.Release.Namespace }}
  path: {{ $path }}
  port: 443
{{- if not $root.Values.webhook.tls.certManager }}
caBundle: {{ (include "sluice.selfSignedTls" $root | fromYaml).ca }}
{{- end }}
{{- end -}}
