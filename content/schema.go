package content

// JSONSchemaAlias names the type whose JSON a Profile is written as (its saved form, see
// MarshalJSON), for the generator of the result's schema (github.com/invopop/jsonschema looks
// for this method); the Profile's own fields are never written.
func (Profile) JSONSchemaAlias() any { return saved{} }
