"""How each engine release serves a family: the adapter's view of its releases' registries.

A family states nothing about engines itself; these look its model types up in
the release's registry (``ecwidth.engines.registry``) and turn what they find
into the checks measuring and sizing make: served at all, under which modality
keys, with which runtime options, and which modalities not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from ecwidth.engines import registry
from ecwidth.engines.facts import Serving, not_served
from ecwidth.engines.releases import Release
from ecwidth.errors import NotServedError, UnsupportedOptionError

if TYPE_CHECKING:
    from ecwidth.engines.runtime import RuntimeOptions


class ServedByReleases:
    """The release-facing half of ``FamilyAdapter``: look-ups by the family's ``model_types``."""

    model_types: ClassVar[tuple[str, ...]] = ()

    def serving_for(self, release: Release, model_type: str | None = None, architecture: str | None = None) -> Serving:
        """How ``release`` serves ``model_type`` (default: the family's first) in a config naming
        ``architecture``: its registry entry (``registry.for_model_type``), or not served where it has none
        (``Release.unlisted`` says why) or where the release's declared transformers pin excludes the classes
        its path loads.

        ``release`` is parsed already (``releases.release``, at the public function or the command line).
        """
        record = registry.for_model_type(release, model_type or self.model_types[0], architecture)
        if record is None:
            return not_served(release.unlisted)
        if record.serves and record.transformers and not release.admits_transformers(record.transformers):
            return replace(
                record,
                path="none",
                why_not=f"{release} declares transformers{release.transformers}, and the classes its "
                f"{'Transformers backend' if record.path == 'backend' else 'class'} loads first appear in "
                f"transformers {record.transformers}",
            )
        return record

    def engine_key(self, modality: str, release: Release) -> str:
        """The key ``release`` ships ``modality`` under (Kimi-K2.5 under SGLang: ``image``)."""
        return self.serving_for(release).keys.get(modality, modality)

    def in_engine_keys(self, values: Mapping[str, Any], release: Release) -> dict[str, Any]:
        """``values`` keyed by ecwidth's modality names, re-keyed as ``release`` names the modalities."""
        keys = self.serving_for(release).keys
        return {keys.get(modality, modality): value for modality, value in values.items()}

    def modality_for_key(self, key: str, release: Release) -> str:
        """ecwidth's modality name for the key ``release`` uses (the inverse of ``engine_key``)."""
        return {engine: ours for ours, engine in self.serving_for(release).keys.items()}.get(key, key)

    def check_served(self, config: Any, release: Release) -> Serving:
        """The release's record for this family, where it serves the config's model type.

        Raises:
            NotServedError: The release does not serve it; says why.
        """
        named = getattr(config, "architectures", None) or [None]
        record = self.serving_for(release, config.model_type, named[0])
        if not record.serves:
            raise NotServedError(f"{release} does not serve model_type {config.model_type!r}: {record.why_not}")
        return record

    def check_options(self, config: Any, options: RuntimeOptions, release: Release) -> None:
        """Refuse an option the release's class for this family does not take.

        Raises:
            UnsupportedOptionError: Names the option and the model types that take it.
        """
        taken = self.serving_for(release).options
        for name in options.set_options():
            if name not in taken:
                takers = sorted(
                    {t for e in registry.entries(release).values() if name in e.options for t in e.model_types}
                )
                raise UnsupportedOptionError(
                    f"{config.model_type} does not take {name} under {release} (the engine's class for it has no "
                    f"such option); model types that do: {', '.join(takers) or 'none'}"
                )

    def unserved(self, config: Any, options: RuntimeOptions, release: Release) -> dict[str, str]:
        """``{modality: why}`` for the modalities the release cannot serve with ``options`` set.

        A measurement leaves them out and says why; asking for one is an error.
        """
        record = self.serving_for(release)
        why = dict(record.unserved)
        for name in options.set_options():
            why.update(record.unserved_with.get(name, {}))
        return why
