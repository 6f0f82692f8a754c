// program dumped by paddle: (empty)
   
	// nothing here either

