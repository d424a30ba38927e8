package fatturapa

import (
	"maps"

	"github.com/einvoice-dev/einvoice/formats/carry"
)

// carried lists the model's JSON members (array indexes as *) that
// FatturaPA holds; docs/FATTURAPA.md gives the element of each. Any other
// member the caller gives is refused by notCarried.
var carried = carry.Set{
	"/id": true, "/issue_date": true, "/type_code": true, "/currency_code": true,
	"/notes/*/text":             true,
	"/purchase_order_reference": true, "/contract_reference": true,
	"/preceding_invoices/*/id": true, "/preceding_invoices/*/issue_date": true,
	"/due_date": true,

	"/seller/name": true, "/seller/vat_id": true, "/seller/tax_registration_id": true,
	"/seller/address/line1": true, "/seller/address/city": true, "/seller/address/post_code": true,
	"/seller/address/subdivision": true, "/seller/address/country_code": true,
	"/seller/contact/telephone": true, "/seller/contact/email": true,
	"/buyer/name": true, "/buyer/vat_id": true, "/buyer/legal_registration_id/id": true,
	"/buyer/address/line1": true, "/buyer/address/city": true, "/buyer/address/post_code": true,
	"/buyer/address/subdivision": true, "/buyer/address/country_code": true,

	"/payment_instructions/means_code":                             true,
	"/payment_instructions/credit_transfers/*/account_id":          true,
	"/payment_instructions/credit_transfers/*/account_name":        true,
	"/payment_instructions/credit_transfers/*/service_provider_id": true,

	"/lines/*/id": true, "/lines/*/quantity": true, "/lines/*/unit_code": true,
	"/lines/*/net_price": true, "/lines/*/net_amount": true, "/lines/*/base_quantity": true,
	"/lines/*/base_quantity_unit_code": true,
	"/lines/*/vat_category_code":       true, "/lines/*/category": true, "/lines/*/vat_rate": true,
	"/lines/*/period/start": true, "/lines/*/period/end": true,
	"/lines/*/item/name":   true,
	"/lines/*/gross_price": true, "/lines/*/price_discount": true,
	"/lines/*/allowances/*/amount": true, "/lines/*/allowances/*/base_amount": true, "/lines/*/allowances/*/percentage": true,
	"/lines/*/allowances/*/reason": true, "/lines/*/allowances/*/reason_code": true,
	"/lines/*/charges/*/amount": true, "/lines/*/charges/*/base_amount": true, "/lines/*/charges/*/percentage": true,
	"/lines/*/charges/*/reason": true, "/lines/*/charges/*/reason_code": true,

	"/supporting_documents/*/id": true, "/supporting_documents/*/description": true,
	"/supporting_documents/*/attachment/content": true, "/supporting_documents/*/attachment/mime_code": true,
	"/supporting_documents/*/attachment/filename": true,

	// Computed by FatturaPA's own rules and compared (see checkGivenTotals).
	"/totals/line_net_total": true, "/totals/tax_exclusive_amount": true, "/totals/tax_amount": true,
	"/totals/tax_inclusive_amount": true, "/totals/payable_amount": true, "/totals/rounding_amount": true,
	"/vat_breakdown/*/taxable_amount": true, "/vat_breakdown/*/tax_amount": true,
	"/vat_breakdown/*/vat_category_code": true, "/vat_breakdown/*/category": true,
	"/vat_breakdown/*/vat_rate": true, "/vat_breakdown/*/exemption_reason": true,
	"/vat_breakdown/*/exemption_reason_code": true,
}

// notCarriedMsg is the message of a member FatturaPA cannot hold.
const notCarriedMsg = "FatturaPA 1.2.2 cannot carry this field (see docs/FATTURAPA.md)"

// ProblemNotCarried is the type of a model field FatturaPA cannot hold.
const ProblemNotCarried = carry.ProblemNotCarried

// Carried returns the model members FatturaPA holds (docs/FATTURAPA.md).
func Carried() carry.Set { return maps.Clone(carried) }
