# Units: `make verify-units` checks them (systemd/ci-deps.sh installs the tools).
.PHONY: verify-units security-units

verify-units:
	@systemd/verify.sh

# Exposure scores of the units (the goal for zeitnot.service and
# zeitnot-link.service is at most 2.0; verify-units checks both).
security-units:
	@command -v systemd-analyze >/dev/null 2>&1 || { echo "systemd-analyze is missing: run systemd/ci-deps.sh"; exit 1; }
	@for u in systemd/*.service; do systemd-analyze security --offline=yes --no-pager "$$u" | tail -n 1; done
