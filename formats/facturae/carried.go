package facturae

import (
	"maps"

	"github.com/einvoice-dev/einvoice/formats/carry"
)

// carried lists the model's JSON members Facturae 3.2.2 holds as this
// generator writes it; docs/FACTURAE.md gives the element of each. Any
// other member the caller gives is a 422 not_carried naming it.
var carried = carry.Set{
	"/id": true, "/issue_date": true, "/type_code": true, "/currency_code": true,
	"/notes/*/text":             true,
	"/purchase_order_reference": true, "/contract_reference": true,
	"/preceding_invoices/*/id": true, "/preceding_invoices/*/issue_date": true,
	"/invoicing_period/start": true, "/invoicing_period/end": true,
	"/due_date": true,

	"/seller/name": true, "/seller/trading_name": true, "/seller/vat_id": true,
	"/seller/address/line1": true, "/seller/address/city": true, "/seller/address/post_code": true,
	"/seller/address/subdivision": true, "/seller/address/country_code": true,
	"/seller/contact/name": true, "/seller/contact/telephone": true, "/seller/contact/email": true,
	"/buyer/name": true, "/buyer/trading_name": true, "/buyer/vat_id": true, "/buyer/legal_registration_id/id": true,
	"/buyer/address/line1": true, "/buyer/address/city": true, "/buyer/address/post_code": true,
	"/buyer/address/subdivision": true, "/buyer/address/country_code": true,
	"/buyer/contact/name": true, "/buyer/contact/telephone": true, "/buyer/contact/email": true,

	"/payment_instructions/means_code":                             true,
	"/payment_instructions/credit_transfers/*/account_id":          true,
	"/payment_instructions/credit_transfers/*/service_provider_id": true,

	"/allowances/*/amount": true, "/allowances/*/base_amount": true, "/allowances/*/percentage": true,
	"/allowances/*/reason": true, "/allowances/*/reason_code": true, "/allowances/*/vat_category_code": true,
	"/allowances/*/category": true, "/allowances/*/vat_rate": true,
	"/charges/*/amount": true, "/charges/*/base_amount": true, "/charges/*/percentage": true,
	"/charges/*/reason": true, "/charges/*/reason_code": true, "/charges/*/vat_category_code": true,
	"/charges/*/category": true, "/charges/*/vat_rate": true,

	"/lines/*/id": true, "/lines/*/quantity": true, "/lines/*/unit_code": true,
	"/lines/*/net_price": true, "/lines/*/net_amount": true, "/lines/*/base_quantity": true,
	"/lines/*/base_quantity_unit_code": true,
	"/lines/*/vat_category_code":       true, "/lines/*/category": true, "/lines/*/vat_rate": true,
	"/lines/*/period/start": true, "/lines/*/period/end": true,
	"/lines/*/item/name": true, "/lines/*/item/description": true, "/lines/*/item/seller_id": true,
	"/lines/*/allowances/*/amount": true, "/lines/*/allowances/*/base_amount": true, "/lines/*/allowances/*/percentage": true,
	"/lines/*/allowances/*/reason": true, "/lines/*/allowances/*/reason_code": true,
	"/lines/*/charges/*/amount": true, "/lines/*/charges/*/base_amount": true, "/lines/*/charges/*/percentage": true,
	"/lines/*/charges/*/reason": true, "/lines/*/charges/*/reason_code": true,

	// Computed by the model's rules and written (see Generate).
	"/totals/line_net_total": true, "/totals/allowance_total": true, "/totals/charge_total": true,
	"/totals/tax_exclusive_amount": true, "/totals/tax_amount": true,
	"/totals/tax_inclusive_amount": true, "/totals/payable_amount": true,
	"/vat_breakdown/*/taxable_amount": true, "/vat_breakdown/*/tax_amount": true,
	"/vat_breakdown/*/vat_category_code": true, "/vat_breakdown/*/category": true,
	"/vat_breakdown/*/vat_rate": true, "/vat_breakdown/*/exemption_reason": true,
	"/vat_breakdown/*/exemption_reason_code": true,
}

// Carried returns the model members Facturae holds (docs/FACTURAE.md).
func Carried() carry.Set { return maps.Clone(carried) }
