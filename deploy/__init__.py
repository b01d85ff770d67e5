"""Deployment: container image, Kubernetes manifests and their offline renderer."""
