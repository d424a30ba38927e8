// Package orderx holds the compiled tables of the Order-X 1.0 Schematron
// (UN/CEFACT SCRDM CIO D20B purchase orders), one per profile: basic,
// comfort and extended (SCRDMCCBDACIOMessageStructure_100pD20B_<PROFILE>.sch).
// They are structural cardinality rules without ids or flags (Set.Tables
// gives each check a stable derived id, "OX-" + 8 hex digits of the SHA-256
// of its rule context, kind and test; see deriveIDs), written for the
// default query binding (XPath 1.0); findings therefore carry the ISO
// skeleton's XSLT 1 location form, as the reference reports them. Generated
// by tools/rulegen into zz_generated_{basic,comfort,extended}.go
// (git-ignored; `make generate`).
package orderx
