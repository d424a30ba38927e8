package pdfread

// Page is one leaf of the page tree with its inheritable attributes
// resolved (Resources, MediaBox, CropBox, Rotate).
type Page struct {
	Ref  Ref // zero when the page is a direct object
	Dict Dict
	// Resources is the page's (possibly inherited) resource dictionary.
	Resources Dict
	// Rotate is the (possibly inherited) /Rotate in degrees.
	Rotate int
}

// Pages walks the page tree in order. Cycles in /Kids are skipped; at most
// Limits.MaxPages pages are returned (ErrLimit beyond).
func (d *Doc) Pages() (pages []Page, err error) {
	defer recoverErr(&err)
	cat, err := d.Catalog()
	if err != nil {
		return nil, err
	}
	seen := map[Ref]bool{}
	var walk func(node Object, inherited Dict, depth int) error
	walk = func(node Object, inherited Dict, depth int) error {
		if depth > d.lim.MaxDepth {
			return limitErr("page tree deeper than %d", d.lim.MaxDepth)
		}
		ref, isRef := node.(Ref)
		if isRef {
			if seen[ref] {
				return nil
			}
			seen[ref] = true
		}
		o, err := d.Resolve(node)
		if err != nil {
			return nil // a broken page object is skipped
		}
		n, ok := o.(Dict)
		if !ok {
			return nil
		}
		inh := Dict{}
		for k, v := range inherited {
			inh[k] = v
		}
		for _, k := range []Name{"Resources", "MediaBox", "CropBox", "Rotate"} {
			if v, ok := n[k]; ok {
				inh[k] = v
			}
		}
		kids, hasKids := d.Get(n, "Kids").(Array)
		t, _ := n["Type"].(Name)
		if t == "Pages" || (t != "Page" && hasKids) {
			for _, k := range kids {
				if err := walk(k, inh, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		if len(pages) >= d.lim.MaxPages {
			return limitErr("more than %d pages", d.lim.MaxPages)
		}
		if err := d.charge(64); err != nil {
			return err
		}
		res, _ := AsDict(d.mustResolve(inh["Resources"]))
		rot, _ := AsInt(d.mustResolve(inh["Rotate"]))
		pg := Page{Dict: n, Resources: res, Rotate: int(rot % 360)}
		if isRef {
			pg.Ref = ref
		}
		pages = append(pages, pg)
		return nil
	}
	if err := walk(cat["Pages"], nil, 0); err != nil {
		return pages, err
	}
	return pages, nil
}

func (d *Doc) mustResolve(o Object) Object {
	r, err := d.Resolve(o)
	if err != nil {
		return Null{}
	}
	return r
}

// PageContent returns the concatenated, decoded content streams of a page
// (an array of streams is joined with newlines).
func (d *Doc) PageContent(p Page) (out []byte, err error) {
	defer recoverErr(&err)
	c := d.Get(p.Dict, "Contents")
	var streams []*Stream
	switch v := c.(type) {
	case *Stream:
		streams = []*Stream{v}
	case Array:
		for _, x := range v {
			if s, ok := d.mustResolve(x).(*Stream); ok {
				streams = append(streams, s)
			}
		}
	}
	for _, s := range streams {
		b, err := d.decodeStream(s)
		if err != nil {
			if isLimit(err) {
				return nil, err
			}
			continue // a damaged content stream: keep the others
		}
		out = append(out, b...)
		out = append(out, '\n')
		if int64(len(out)) > d.lim.MaxDecoded {
			return nil, limitErr("page content above %d bytes", d.lim.MaxDecoded)
		}
	}
	return out, nil
}
