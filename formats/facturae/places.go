package facturae

// alpha3 maps the ISO 3166-1 alpha-2 codes this generator supports to the
// alpha-3 codes Facturae's CountryType lists. Another country is a 422
// (docs/FACTURAE.md), never a guess.
var alpha3 = map[string]string{
	// EU
	"AT": "AUT", "BE": "BEL", "BG": "BGR", "CY": "CYP", "CZ": "CZE", "DE": "DEU", "DK": "DNK", "EE": "EST",
	"ES": "ESP", "FI": "FIN", "FR": "FRA", "GR": "GRC", "HR": "HRV", "HU": "HUN", "IE": "IRL", "IT": "ITA",
	"LT": "LTU", "LU": "LUX", "LV": "LVA", "MT": "MLT", "NL": "NLD", "PL": "POL", "PT": "PRT", "RO": "ROU",
	"SE": "SWE", "SI": "SVN", "SK": "SVK",
	// Europe outside the EU
	"AD": "AND", "AL": "ALB", "BA": "BIH", "BY": "BLR", "CH": "CHE", "GB": "GBR", "GI": "GIB", "IS": "ISL",
	"LI": "LIE", "MC": "MCO", "MD": "MDA", "ME": "MNE", "MK": "MKD", "NO": "NOR", "RS": "SRB", "RU": "RUS",
	"SM": "SMR", "TR": "TUR", "UA": "UKR", "VA": "VAT",
	// elsewhere
	"AE": "ARE", "AR": "ARG", "AU": "AUS", "BR": "BRA", "CA": "CAN", "CL": "CHL", "CN": "CHN", "CO": "COL",
	"CU": "CUB", "DO": "DOM", "DZ": "DZA", "EC": "ECU", "EG": "EGY", "HK": "HKG", "IL": "ISR", "IN": "IND",
	"JP": "JPN", "KR": "KOR", "MA": "MAR", "MX": "MEX", "NZ": "NZL", "PE": "PER", "SA": "SAU", "SG": "SGP",
	"TN": "TUN", "US": "USA", "UY": "URY", "VE": "VEN", "ZA": "ZAF",
}

// eu are the EU member states (ResidenceTypeCode U for a party resident
// there but not in Spain).
var eu = map[string]bool{"AT": true, "BE": true, "BG": true, "CY": true, "CZ": true, "DE": true, "DK": true,
	"EE": true, "FI": true, "FR": true, "GR": true, "HR": true, "HU": true, "IE": true, "IT": true, "LT": true,
	"LU": true, "LV": true, "MT": true, "NL": true, "PL": true, "PT": true, "RO": true, "SE": true, "SI": true, "SK": true}

// provinces names the Spanish province of a postal code by its first two
// digits (the INE province code), for AddressInSpain/Province when the
// address has no subdivision.
var provinces = map[string]string{
	"01": "Álava", "02": "Albacete", "03": "Alicante", "04": "Almería", "05": "Ávila", "06": "Badajoz",
	"07": "Illes Balears", "08": "Barcelona", "09": "Burgos", "10": "Cáceres", "11": "Cádiz", "12": "Castellón",
	"13": "Ciudad Real", "14": "Córdoba", "15": "A Coruña", "16": "Cuenca", "17": "Girona", "18": "Granada",
	"19": "Guadalajara", "20": "Gipuzkoa", "21": "Huelva", "22": "Huesca", "23": "Jaén", "24": "León",
	"25": "Lleida", "26": "La Rioja", "27": "Lugo", "28": "Madrid", "29": "Málaga", "30": "Murcia",
	"31": "Navarra", "32": "Ourense", "33": "Asturias", "34": "Palencia", "35": "Las Palmas", "36": "Pontevedra",
	"37": "Salamanca", "38": "S.C. de Tenerife", "39": "Cantabria", "40": "Segovia", "41": "Sevilla",
	"42": "Soria", "43": "Tarragona", "44": "Teruel", "45": "Toledo", "46": "Valencia", "47": "Valladolid",
	"48": "Bizkaia", "49": "Zamora", "50": "Zaragoza", "51": "Ceuta", "52": "Melilla",
}

// units maps UN/ECE Recommendation 20/21 unit codes to Facturae's
// UnitOfMeasure codes; another unit is a 422.
var units = map[string]string{
	"C62": "01", "H87": "01", "EA": "01", "XUN": "01", // units
	"HUR": "02", "KGM": "03", "LTR": "04", "XBX": "06", "CLT": "15", "CMT": "16", "DZN": "18",
	"GRM": "21", "KMT": "22", "MTR": "25", "MMT": "26", "XPK": "28", "XRO": "30", "MTQ": "33",
	"SEC": "34", "WTT": "35", "KWH": "36",
}

// paymentMeans maps UNTDID 4461 payment means to Facturae PaymentMeans.
var paymentMeans = map[string]string{
	"10": "01",                                     // cash: al contado
	"20": "11",                                     // cheque
	"30": "04", "31": "04", "42": "04", "58": "04", // credit transfer: transferencia
	"49": "02", "59": "02", // direct debit: recibo domiciliado
	"48": "19", "54": "19", "55": "19", // card: pago mediante tarjeta
	"97": "14", // clearing between partners: compensación
}
