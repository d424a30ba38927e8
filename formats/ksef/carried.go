package ksef

import (
	"maps"

	"github.com/einvoice-dev/einvoice/formats/carry"
)

// carried lists the model's JSON members FA(3) holds as this generator
// writes it (docs/KSEF.md gives the element of each); any other member the
// caller gives is a 422 not_carried naming it.
var carried = carry.Set{
	"/id": true, "/issue_date": true, "/type_code": true, "/currency_code": true,
	"/notes/*/text":             true,
	"/purchase_order_reference": true, "/contract_reference": true,
	"/invoicing_period/start": true, "/invoicing_period/end": true,
	"/delivery/date": true,
	"/due_date":      true,

	"/seller/name": true, "/seller/vat_id": true,
	"/seller/address/line1": true, "/seller/address/line2": true, "/seller/address/city": true,
	"/seller/address/post_code": true, "/seller/address/country_code": true,
	"/seller/contact/telephone": true, "/seller/contact/email": true,
	"/buyer/name": true, "/buyer/vat_id": true, "/buyer/legal_registration_id/id": true,
	"/buyer/address/line1": true, "/buyer/address/line2": true, "/buyer/address/city": true,
	"/buyer/address/post_code": true, "/buyer/address/country_code": true,
	"/buyer/contact/telephone": true, "/buyer/contact/email": true,

	"/payment_instructions/means_code":                             true,
	"/payment_instructions/means_text":                             true,
	"/payment_instructions/credit_transfers/*/account_id":          true,
	"/payment_instructions/credit_transfers/*/service_provider_id": true,

	"/lines/*/id": true, "/lines/*/quantity": true, "/lines/*/unit_code": true,
	"/lines/*/net_price": true, "/lines/*/net_amount": true, "/lines/*/base_quantity": true,
	"/lines/*/base_quantity_unit_code": true,
	"/lines/*/vat_category_code":       true, "/lines/*/category": true, "/lines/*/vat_rate": true,
	"/lines/*/item/name": true, "/lines/*/item/seller_id": true,

	// Computed by the model's rules and written (see Generate).
	"/totals/line_net_total": true, "/totals/tax_exclusive_amount": true, "/totals/tax_amount": true,
	"/totals/tax_inclusive_amount": true, "/totals/payable_amount": true,
	"/vat_breakdown/*/taxable_amount": true, "/vat_breakdown/*/tax_amount": true,
	"/vat_breakdown/*/vat_category_code": true, "/vat_breakdown/*/category": true,
	"/vat_breakdown/*/vat_rate": true, "/vat_breakdown/*/exemption_reason": true,
	"/vat_breakdown/*/exemption_reason_code": true,
}

// Carried returns the model members FA(3) holds (docs/KSEF.md).
func Carried() carry.Set { return maps.Clone(carried) }
