<?xml version="1.0" encoding="UTF-8"?>
<!--
  The official schematrons, compiled to XSLT by the ISO skeleton, walk the whole document once per
  pattern (68 patterns in the Factur-X EN16931 one): the root applies each pattern's mode to `/`,
  and every template of the mode applies it again to every child (and attribute). Each
  `svrl:active-pattern` also holds a default-mode walk of the whole document that writes nothing
  (text is stripped). Most of the time went there, not into the rules.

  This stylesheet rewrites that XSLT, the rules left as they are:
  - the empty default-mode walks go;
  - a pattern whose rule contexts are single paths without variables is entered at the nodes those
    contexts select, in document order, each once, and its templates no longer walk on. A node is
    given to the same template as in the walk (the mode's priorities choose, as before), in the same
    order, so the SVRL is the same; a node no rule matches wrote nothing in the walk either. A walk
    of elements only (`select="*"`) never reached an attribute: the entry keeps attributes out too.
  - any other pattern (a union, or a global variable in a context) keeps its walk.
  test/einvoice/schematron-walk.test.ts compares the two SVRLs on the test corpus, the official
  examples and broken documents.
-->
<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:svrl="http://purl.oclc.org/dsdl/svrl" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:map="http://www.w3.org/2005/xpath-functions/map"
  xmlns:fn="http://www.w3.org/2005/xpath-functions" xmlns:f="urn:facteur:schematron-walk"
  exclude-result-prefixes="xs map fn f">
  <xsl:mode on-no-match="shallow-copy"/>

  <xsl:variable name="templates" select="/xsl:stylesheet/xsl:template[matches(@mode, '^M[0-9]+$')]"/>
  <!-- The rules of each pattern: its templates of positive priority (the defaults are -1 and -2). -->
  <xsl:variable name="rulesByMode" as="map(xs:string, element()*)" select="map:merge(
      for $m in distinct-values($templates/@mode)
      return map:entry(string($m), $templates[@mode = $m][xs:double(@priority) ge 0]))"/>

  <xsl:function name="f:entered" as="xs:boolean">
    <xsl:param name="mode" as="xs:string"/>
    <xsl:variable name="rules" select="$rulesByMode($mode)"/>
    <xsl:sequence select="exists($rules) and (every $rule in $rules satisfies
        not(contains($rule/@match, '|')) and f:own-variables(string($rule/@match)))"/>
  </xsl:function>

  <!-- Every variable of the context is bound in it (`some $code in ...`): a global one (a pattern's
       `let`) is read with no document in focus from the root's entry, unlike in the walk. -->
  <xsl:function name="f:own-variables" as="xs:boolean">
    <xsl:param name="match" as="xs:string"/>
    <xsl:sequence select="every $name in analyze-string($match, '\$([\i-[:]][\c-[:]]*)')//fn:group[@nr = 1]/string()
        satisfies matches($match, '(some|every|for|let)\s+\$' || $name || '\s')"/>
  </xsl:function>

  <!-- The apply-templates by which a pattern's templates walk on to the children. -->
  <xsl:function name="f:walk" as="element()*">
    <xsl:param name="mode" as="xs:string"/>
    <xsl:sequence select="$templates[@mode = $mode]/xsl:apply-templates
        [@mode = $mode][normalize-space(@select) = ('@*|*', '*')]"/>
  </xsl:function>

  <xsl:template match="svrl:active-pattern/xsl:apply-templates[not(@select) and not(@mode)][not(*)]"/>

  <xsl:template match="xsl:apply-templates[. intersect f:walk(string(@mode))][f:entered(string(@mode))]"/>

  <xsl:template match="xsl:apply-templates[normalize-space(@select) = '/'][matches(@mode, '^M[0-9]+$')]
      [f:entered(string(@mode))]">
    <xsl:variable name="contexts" select="$rulesByMode(string(@mode))/normalize-space(@match)"/>
    <!-- From the root (`/a/b`): child steps, cheap. -->
    <xsl:variable name="rooted" select="$contexts[starts-with(., '/') and not(starts-with(., '//'))]"/>
    <!-- Anywhere (`//a/b`, or a relative `a/b`). -->
    <xsl:variable name="anywhere" select="$contexts[not(. = $rooted)] ! replace(., '^//', '')"/>
    <!-- Grouped by a plain first step: one scan of the document for that name, then the rest of each
         path from there (rather than every path tried from every node). -->
    <xsl:variable name="headed"
      select="$anywhere[matches(., '^[\i-[:]][\c-[:]]*(:[\i-[:]][\c-[:]]*)?(/[^/]|$)')]"/>
    <xsl:variable name="grouped" as="xs:string*">
      <xsl:for-each-group select="$headed" group-by="replace(., '^([^/]+).*$', '$1')">
        <xsl:variable name="rests"
          select="current-group() ! (if (contains(., '/')) then substring-after(., '/') else '.')"/>
        <xsl:sequence select="'//' || current-grouping-key()
            || (if (count($rests) = 1 and $rests = '.') then '' else '/(' || string-join($rests, ' | ') || ')')"/>
      </xsl:for-each-group>
    </xsl:variable>
    <xsl:variable name="union"
      select="string-join(($rooted, $grouped, $anywhere[not(. = $headed)] ! ('//' || .)), ' | ')"/>
    <xsl:copy>
      <xsl:copy-of select="@mode"/>
      <xsl:attribute name="select" select="
          if (every $walk in f:walk(string(@mode)) satisfies normalize-space($walk/@select) = '*')
          then '(' || $union || ')[not(. instance of attribute())]'
          else $union"/>
    </xsl:copy>
  </xsl:template>
</xsl:stylesheet>
