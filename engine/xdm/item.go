package xdm

import (
	"math"
	"math/big"
)

// Type is the dynamic type of an item.
type Type uint8

// Item types. Only TNode is a node; the others are atomic.
const (
	TNode    Type = iota // a node of the evaluated document (Item.Node)
	TUntyped             // xs:untypedAtomic (Item.S)
	TString              // xs:string (Item.S)
	TBoolean             // xs:boolean (Item.B)
	TDecimal             // xs:decimal (Item.Decimal)
	TInteger             // xs:integer (Item.Decimal, scale 0)
	TDouble              // xs:double (Item.Float)
	TDate                // xs:date (Item.Date)
)

var typeNames = [...]string{"node()", "xs:untypedAtomic", "xs:string", "xs:boolean",
	"xs:decimal", "xs:integer", "xs:double", "xs:date"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "unknown"
}

// IsNumeric reports whether t is xs:decimal, xs:integer or xs:double.
func (t Type) IsNumeric() bool { return t == TDecimal || t == TInteger || t == TDouble }

// isDec reports whether t is xs:decimal or xs:integer.
func (t Type) isDec() bool { return t == TDecimal || t == TInteger }

// Item is one XDM item: a node (by id in the evaluated document) or an
// atomic value. Items are small values (40 bytes) and are copied freely:
// every focus, sequence and memoised value holds them, so the fields are
// shared between the types (read them through Decimal, Float and Date).
type Item struct {
	T Type
	// B is the value of an xs:boolean; for xs:decimal and xs:integer, the
	// Decimal's plain mark.
	B   bool
	Doc uint16 // TNode: 0 = the evaluated document, k = the k-th registered extra document (fn:document)
	// Node is the xmltree.NodeID of a node; the scale of an xs:decimal or
	// xs:integer; the year of an xs:date.
	Node int32
	S    string // TString, TUntyped
	// n is the coefficient of an xs:decimal or xs:integer that fits in an
	// int64, the IEEE 754 bits of an xs:double, or the month, day and
	// timezone of an xs:date (packDate).
	n uint64
	// big is the coefficient of an xs:decimal or xs:integer that does not
	// fit in an int64 (never mutated).
	big *big.Int
}

// Sequence is an ordered sequence of items. nil is the empty sequence.
type Sequence []Item

// QName is an expanded name.
type QName struct {
	Space string // namespace URI, "" for none
	Local string
}

func (q QName) String() string {
	if q.Space == "" {
		return q.Local
	}
	return "Q{" + q.Space + "}" + q.Local
}

// Constructors for atomic items.

// NodeItem returns a node item of the evaluated document.
func NodeItem(id int32) Item { return Item{T: TNode, Node: id} }

// NodeItemIn returns a node item of document doc (0: the evaluated document).
func NodeItemIn(doc uint16, id int32) Item { return Item{T: TNode, Doc: doc, Node: id} }

// NodeKey orders node items: by document, then document order.
func (it Item) NodeKey() int64 { return int64(it.Doc)<<32 | int64(uint32(it.Node)) }

// String returns an xs:string item.
func String(s string) Item { return Item{T: TString, S: s} }

// Untyped returns an xs:untypedAtomic item.
func Untyped(s string) Item { return Item{T: TUntyped, S: s} }

// Bool returns an xs:boolean item.
func Bool(b bool) Item { return Item{T: TBoolean, B: b} }

// Integer returns an xs:integer item.
func Integer(i int64) Item { return decItem(TInteger, DecimalFromInt(i)) }

// IntegerD returns an xs:integer item from an integral decimal.
func IntegerD(d Decimal) Item { return decItem(TInteger, d) }

// Dec returns an xs:decimal item.
func Dec(d Decimal) Item { return decItem(TDecimal, d) }

// decItem returns an item of type t (xs:decimal or xs:integer) holding d.
func decItem(t Type, d Decimal) Item {
	return Item{T: t, B: d.plain, Node: d.s, n: uint64(d.c), big: d.b}
}

// Double returns an xs:double item.
func Double(f float64) Item { return Item{T: TDouble, n: math.Float64bits(f)} }

// DateItem returns an xs:date item.
func DateItem(d Date) Item {
	var tz uint64
	if d.HasTZ {
		tz = 1<<16 | uint64(uint16(d.TZ))<<32
	}
	return Item{T: TDate, Node: d.Year, n: uint64(d.Month) | uint64(d.Day)<<8 | tz}
}

// Decimal returns the value of an xs:decimal or xs:integer item.
func (it Item) Decimal() Decimal {
	return Decimal{c: int64(it.n), b: it.big, s: it.Node, plain: it.B}
}

// SmallInt returns the value of an xs:integer item whose coefficient fits
// in an int64 at scale 0, without the plain mark (Integer's items, such as
// string-to-codepoints'): two such items with one value are the same item.
// ok=false for any other item.
func (it Item) SmallInt() (int64, bool) {
	if it.T != TInteger || it.big != nil || it.Node != 0 || it.B {
		return 0, false
	}
	return int64(it.n), true
}

// WithDecimal returns an xs:decimal or xs:integer item of it's type
// holding d (e.g. the result of abs or round).
func (it Item) WithDecimal(d Decimal) Item { return decItem(it.T, d) }

// Float returns the value of an xs:double item.
func (it Item) Float() float64 { return math.Float64frombits(it.n) }

// Date returns the value of an xs:date item.
func (it Item) Date() Date {
	return Date{Year: it.Node, Month: uint8(it.n), Day: uint8(it.n >> 8), HasTZ: it.n>>16&1 != 0, TZ: int16(uint16(it.n >> 32))}
}

// IsNode reports whether it is a node.
func (it Item) IsNode() bool { return it.T == TNode }

// StringValue returns the canonical string of an atomic item (the result of
// casting it to xs:string). It must not be called on nodes.
func (it Item) StringValue() string {
	switch it.T {
	case TString, TUntyped:
		return it.S
	case TBoolean:
		if it.B {
			return "true"
		}
		return "false"
	case TDecimal, TInteger:
		return it.Decimal().String()
	case TDouble:
		return FormatDouble(it.Float())
	case TDate:
		return it.Date().String()
	}
	return ""
}

// AsFloat returns a numeric item as float64.
func (it Item) AsFloat() float64 {
	if it.T == TDouble {
		return it.Float()
	}
	return it.Decimal().Float64()
}
