package wire

// FatturaPAGenerateRequest is the JSON body of generate/facturapa: the
// canonical invoice model and the Italian extras (formats/fatturapa,
// docs/FATTURAPA.md). Its OpenAPI schema is generated from these tags; a
// test keeps the member names and enums equal to the decoder's.
type FatturaPAGenerateRequest struct {
	Invoice Object          `json:"invoice" required:"true" doc:"The canonical EN 16931 invoice model (GET /v1/schema/invoice). A given field FatturaPA cannot carry is a 422 naming it (docs/FATTURAPA.md)."`
	Extras  FatturaPAExtras `json:"extras" required:"true" doc:"Italian data the model has no term for. Unknown members are refused."`
}

// FatturaPAExtras are the FatturaPA extras.
type FatturaPAExtras struct {
	TrasmittenteIDPaese  string             `json:"trasmittente_id_paese,omitempty" doc:"IdTrasmittente/IdPaese, ISO 3166-1 alpha-2 (default IT)."`
	TrasmittenteIDCodice string             `json:"trasmittente_id_codice" required:"true" doc:"IdTrasmittente/IdCodice: the transmitter's tax code (1-28 printable ASCII)."`
	ProgressivoInvio     string             `json:"progressivo_invio" required:"true" doc:"ProgressivoInvio: the transmitter's file number, [A-Za-z0-9]{1,10}."`
	TipoDocumento        string             `json:"tipo_documento,omitempty" enum:"TD01,TD02,TD03,TD04,TD05,TD06,TD16,TD17,TD18,TD19,TD20,TD21,TD22,TD23,TD24,TD25,TD26,TD27,TD28" doc:"TipoDocumento; default TD01 for type_code 380, TD04 for 381; required for any other type_code (TD05 only when given)."`
	CodiceDestinatario   string             `json:"codice_destinatario,omitempty" doc:"CodiceDestinatario: 6 characters (public administration, FPA12) or 7 (FPR12); [A-Z0-9]. Give this or pec (0000000 is written with pec alone)."`
	PEC                  string             `json:"pec,omitempty" doc:"PECDestinatario: the buyer's certified e-mail address."`
	RegimeFiscale        string             `json:"regime_fiscale,omitempty" enum:"RF01,RF02,RF04,RF05,RF06,RF07,RF08,RF09,RF10,RF11,RF12,RF13,RF14,RF15,RF16,RF17,RF18,RF19" doc:"The seller's RegimeFiscale (default RF01)."`
	Ritenuta             *FatturaPARitenuta `json:"ritenuta,omitempty" doc:"DatiRitenuta: withholding tax on every line; ImportoRitenuta is computed."`
	Bollo                *FatturaPABollo    `json:"bollo,omitempty" doc:"DatiBollo (BolloVirtuale SI)."`
	Cassa                *FatturaPACassa    `json:"cassa,omitempty" doc:"DatiCassaPrevidenziale; ImportoContributoCassa is computed and added to DatiRiepilogo of its rate."`
	Natura               map[string]string  `json:"natura,omitempty" doc:"Natura per line id (BT-126) for zero-rate lines, overriding the category default (EXEMPT N4, INTRA_COMMUNITY N3.2, EXPORT N3.1, REVERSE_CHARGE N6.9, OUT_OF_SCOPE N2.2). Values: N1, N2.1, N2.2, N3.1-N3.6, N4, N5, N6.1-N6.9, N7."`
}

// FatturaPARitenuta is DatiRitenuta.
type FatturaPARitenuta struct {
	Tipo     string `json:"tipo" required:"true" enum:"RT01,RT02,RT03,RT04,RT05,RT06" doc:"TipoRitenuta."`
	Aliquota any    `json:"aliquota" required:"true" doc:"AliquotaRitenuta, percent: a decimal as a JSON string or number, 0-100, at most 2 decimals."`
	Causale  string `json:"causale" required:"true" enum:"A,B,C,D,E,G,H,I,L,M,N,O,P,Q,R,S,T,U,V,W,X,Y,Z,L1,M1,M2,O1,V1,ZO" doc:"CausalePagamento (CU model)."`
}

// FatturaPABollo is DatiBollo.
type FatturaPABollo struct {
	Importo any `json:"importo" required:"true" doc:"ImportoBollo: a decimal as a JSON string or number, at most 2 decimals (not added to ImportoTotaleDocumento)."`
}

// FatturaPACassa is DatiCassaPrevidenziale.
type FatturaPACassa struct {
	Tipo        string `json:"tipo" required:"true" enum:"TC01,TC02,TC03,TC04,TC05,TC06,TC07,TC08,TC09,TC10,TC11,TC12,TC13,TC14,TC15,TC16,TC17,TC18,TC19,TC20,TC21,TC22" doc:"TipoCassa."`
	Aliquota    any    `json:"aliquota" required:"true" doc:"AlCassa, percent (decimal, 0-100, at most 2 decimals)."`
	Imponibile  any    `json:"imponibile,omitempty" doc:"ImponibileCassa (decimal); default: the sum of the line net amounts."`
	AliquotaIVA any    `json:"aliquota_iva" required:"true" doc:"AliquotaIVA of the contribution, percent (decimal)."`
	Ritenuta    bool   `json:"ritenuta,omitempty" doc:"The contribution is subject to the ritenuta (Ritenuta SI; added to its base)."`
	Natura      string `json:"natura,omitempty" enum:"N1,N2.1,N2.2,N3.1,N3.2,N3.3,N3.4,N3.5,N3.6,N4,N5,N6.1,N6.2,N6.3,N6.4,N6.5,N6.6,N6.7,N6.8,N6.9,N7" doc:"Natura, required exactly when aliquota_iva is 0."`
}
